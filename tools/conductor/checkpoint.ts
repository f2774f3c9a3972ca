import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { DomainError, ValidationError } from '../../core/errors.ts';
import { JsonObject, updates } from '../common.ts';
import { SdkSessionId, sdkSession } from '../sdk/session-access.ts';
import { stateOf } from './engine.ts';
import { armFinalization, isEnded } from './end.ts';
import { inTransaction } from '../../core/tx.ts';
import { interviews } from '../interviews/rows.ts';

const MAX_SNAPSHOT_BYTES = 64 * 1024;

export const conductorCheckpoint = capability({
  name: 'sdk.conductor_checkpoint',
  title: 'Checkpoint the interview (widget)',
  description:
    'Best-effort save when the page unloads: keeps the widget\'s snapshot with the interview and arms finalisation, so the interview ends ' +
    'and is processed if the participant does not reconnect within the grace period. Reconnecting disarms it.',
  input: z.strictObject({
    sessionId: SdkSessionId,
    snapshot: JsonObject.optional().describe('Whatever the widget needs to restore its view (at most 64 KB as JSON)'),
    reason: z.string().trim().max(200).optional().describe('e.g. pagehide, visibilitychange'),
  }),
  output: z.object({ success: z.boolean(), finalize_after: z.string() }),
  annotations: updates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rest: { method: 'POST', path: '/api/sdk/conductor/:sessionId/checkpoint' },
  async handler(ctx, input) {
    if (input.snapshot && Buffer.byteLength(JSON.stringify(input.snapshot)) > MAX_SNAPSHOT_BYTES) throw new ValidationError('snapshot: at most 64 KB');
    const at = await inTransaction(ctx.services.db.pool, async (sql) => {
      const { interview } = await sdkSession(ctx, input.sessionId, sql, true);
      if (isEnded(interview)) throw new DomainError('This interview has already ended', { code: 'session_ended' });
      if (interview.status !== 'in_progress') throw new DomainError('The interview has not started', { code: 'session_not_started', action: 'POST /api/sdk/conductor/:sessionId/start first' });
      const state = { ...stateOf(interview), checkpoint: { snapshot: input.snapshot ?? null, reason: input.reason ?? null, at: new Date().toISOString() } };
      await interviews.save(sql, interview, { conductor_state: state as never });
      return armFinalization(ctx.services, interview, sql);
    });
    return { success: true, finalize_after: at.toISOString() };
  },
});
