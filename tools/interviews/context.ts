import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly } from '../common.ts';
import { SessionIdParam, findInterview } from './record.ts';
import { segments } from './rows.ts';

export const getContext = capability({
  name: 'interviews.get_context',
  title: 'Transcript around a moment',
  description:
    'The transcript segments and page events within a window around a timestamp of an interview (default ±30 s) — what was said and ' +
    'done around an evidence card\'s timestamp_ms, without reading the whole transcript. ' +
    'Use it to check an evidence card\'s quote against what surrounds it.',
  input: z.strictObject({
    sessionId: SessionIdParam,
    timestamp_ms: z.number().min(0),
    window_ms: z.number().int().min(1000).max(600_000).default(30_000).describe('How far before and after to look'),
  }),
  output: z.object({
    session_id: z.string(),
    from_ms: z.number(),
    to_ms: z.number(),
    segments: z.array(z.object({ id: z.string(), speaker: z.string().nullable(), role: z.string(), start_ms: z.number().nullable(), end_ms: z.number().nullable(), text: z.string() })),
    events: z.array(z.object({ event_type: z.string(), timestamp_ms: z.number(), event_line: z.string() })),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/context' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const from = Math.max(0, input.timestamp_ms - input.window_ms);
    const to = input.timestamp_ms + input.window_ms;
    const segmentsNear = await segments.select(ctx.services.db.pool, 'interview_id = $1 AND start_ms <= $2 AND end_ms >= $3', [interview.id, to, from], 'ORDER BY idx');
    const { rows } = await ctx.services.db.pool.query(
      `SELECT event_type, timestamp_ms, event_line FROM interview_events WHERE interview_id = $1 AND timestamp_ms BETWEEN $2 AND $3 ORDER BY timestamp_ms LIMIT 500`,
      [interview.id, from, to],
    );
    return {
      session_id: interview.id,
      from_ms: from,
      to_ms: to,
      segments: segmentsNear.map((s) => ({ id: s.id, speaker: s.speaker, role: s.role, start_ms: s.start_ms, end_ms: s.end_ms, text: s.text })),
      events: rows,
    };
  },
});
