import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { updates } from '../common.ts';
import { SdkSessionId, elapsedMs, recordEvent, sdkSession } from './session-access.ts';
import { interviews } from '../interviews/rows.ts';

const Track = z.enum(['ok', 'muted', 'denied', 'unavailable', 'stopped']);

const Health = z.object({
  status: z.enum(['recording', 'degraded', 'failed', 'stopped']),
  microphone: Track.nullable(),
  screen: Track.nullable(),
  chunks_sent: z.number().int().nullable(),
  chunks_failed: z.number().int().nullable(),
  message: z.string().nullable(),
  received_at: z.string(),
});

export const sdkRecordingHealth = capability({
  name: 'sdk.recording_health',
  title: 'Recording-health beacon (widget)',
  description:
    'The widget reports how recording is going (microphone and screen tracks, chunks sent and failed). The latest report is kept ' +
    'on the interview; changes of status are added to its timeline.',
  input: z.strictObject({
    sessionId: SdkSessionId,
    status: Health.shape.status,
    microphone: Track.optional(),
    screen: Track.optional(),
    chunks_sent: z.number().int().min(0).max(100000).optional(),
    chunks_failed: z.number().int().min(0).max(100000).optional(),
    message: z.string().trim().max(500).optional(),
  }),
  output: z.object({ success: z.boolean(), recording_health: Health }),
  annotations: updates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rateLimit: 120,
  rest: { method: 'POST', path: '/api/sdk/sessions/:sessionId/recording-health' },
  async handler(ctx, input) {
    const { interview } = await sdkSession(ctx, input.sessionId);
    const health = {
      status: input.status,
      microphone: input.microphone ?? null,
      screen: input.screen ?? null,
      chunks_sent: input.chunks_sent ?? null,
      chunks_failed: input.chunks_failed ?? null,
      message: input.message ?? null,
      received_at: new Date().toISOString(),
    };
    const previous = (interview.recording_health as { status?: string } | null)?.status;
    await interviews.save(ctx.services.db.pool, interview, { recording_health: health });
    if (previous !== input.status) {
      await recordEvent(ctx.services, interview.id, {
        type: 'recording_health',
        timestampMs: elapsedMs(interview),
        line: `recording ${input.status}${input.message ? `: ${input.message}` : ''}`,
        data: health,
      });
    }
    return { success: true, recording_health: health };
  },
});
