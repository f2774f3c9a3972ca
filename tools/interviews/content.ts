import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { NotFoundError, ValidationError } from '../../core/errors.ts';
import { JsonObject, readOnly, creates } from '../common.ts';
import { parseOrThrow } from '../../core/invoke.ts';
import { SessionIdParam, findInterview } from './record.ts';
import { segmentsOf } from './rows.ts';

const Segment = z.object({
  id: z.string(),
  idx: z.number().int(),
  speaker: z.string().nullable(),
  role: z.enum(['participant', 'interviewer', 'unknown']),
  start_ms: z.number().nullable(),
  end_ms: z.number().nullable(),
  text: z.string(),
});

export const getTranscript = capability({
  name: 'interviews.transcript',
  title: 'Interview transcript',
  description:
    'The transcript as timed segments with speaker and role, and as plain text ("Speaker: words" per line). ' +
    'Use it to read the whole conversation; for the moments around one timestamp, interviews.get_context is lighter.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: z.object({ session_id: z.string(), format: z.string().nullable(), text: z.string(), segments: z.array(Segment) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/transcript' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const segments = await segmentsOf(ctx.services.db.pool, interview.id);
    return {
      session_id: interview.id,
      format: interview.transcript_format,
      text: segments.map((s) => (s.speaker ? `${s.speaker}: ${s.text}` : s.text)).join('\n'),
      segments: segments.map((s) => ({ id: s.id, idx: s.idx, speaker: s.speaker, role: s.role, start_ms: s.start_ms, end_ms: s.end_ms, text: s.text })),
    };
  },
});

const TimelineItem = z.object({
  kind: z.enum(['event', 'message', 'transcript']),
  timestamp_ms: z.number(),
  event_type: z.string().nullable(),
  text: z.string(),
  speaker: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
});
type Item = z.input<typeof TimelineItem>;

async function eventsAndMessages(ctx: Parameters<typeof findInterview>[0], interviewId: string): Promise<Item[]> {
  const pool = ctx.services.db.pool;
  const [events, messages] = await Promise.all([
    pool.query(`SELECT event_type, timestamp_ms, event_line, data FROM interview_events WHERE interview_id = $1 ORDER BY timestamp_ms, id LIMIT 20000`, [interviewId]),
    pool.query(`SELECT role, content, timestamp_ms, segment_id FROM interview_messages WHERE interview_id = $1 ORDER BY timestamp_ms, id LIMIT 20000`, [interviewId]),
  ]);
  return [
    ...events.rows.map((e) => ({ kind: 'event' as const, timestamp_ms: e.timestamp_ms, event_type: e.event_type, text: e.event_line, speaker: null, data: e.data })),
    ...messages.rows.map((m) => ({ kind: 'message' as const, timestamp_ms: m.timestamp_ms, event_type: null, text: m.content, speaker: m.role, data: m.segment_id ? { segment_id: m.segment_id } : null })),
  ];
}

const byTime = (a: Item, b: Item) => a.timestamp_ms - b.timestamp_ms;

export const getTimeline = capability({
  name: 'interviews.timeline',
  title: 'Interview timeline',
  description:
    'Everything recorded during an interview — page events and conductor messages — in time order. ' +
    'Use it to follow an interview step by step; interviews.enriched_timeline adds what was said.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: z.object({ session_id: z.string(), items: z.array(TimelineItem) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/timeline' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    return { session_id: interview.id, items: (await eventsAndMessages(ctx, interview.id)).sort(byTime) };
  },
});

export const getEnrichedTimeline = capability({
  name: 'interviews.enriched_timeline',
  title: 'Interview timeline with transcript',
  description:
    'The timeline merged with the transcript segments, so what was said sits beside what happened on the page. ' +
    'Use it when both speech and page activity matter; for a short window around one moment, interviews.get_context is lighter.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: z.object({ session_id: z.string(), items: z.array(TimelineItem) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/enriched-timeline' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const segments = await segmentsOf(ctx.services.db.pool, interview.id);
    const items: Item[] = [
      ...(await eventsAndMessages(ctx, interview.id)),
      ...segments.map((s) => ({ kind: 'transcript' as const, timestamp_ms: s.start_ms ?? 0, event_type: null, text: s.text, speaker: s.speaker, data: { segment_id: s.id, role: s.role, end_ms: s.end_ms } })),
    ];
    return { session_id: interview.id, items: items.sort(byTime) };
  },
});

export const getCues = capability({
  name: 'interviews.cues',
  title: 'Observe-segment cues',
  description:
    'Cues recorded while the participant used the product in observe segments (event_type "cue", or any event during an observe segment). ' +
    'Use it to jump to what the participant did and flagged while using the product, then read around a cue with interviews.get_context.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: z.object({ session_id: z.string(), cues: z.array(z.object({ timestamp_ms: z.number(), segment_id: z.string().nullable(), cue: z.string(), data: z.record(z.string(), z.unknown()) })) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/cues' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const { rows } = await ctx.services.db.pool.query(
      `SELECT timestamp_ms, event_line, data FROM interview_events
        WHERE interview_id = $1 AND (event_type = 'cue' OR data->>'segment_mode' = 'observe') ORDER BY timestamp_ms, id`,
      [interview.id],
    );
    return { session_id: interview.id, cues: rows.map((r) => ({ timestamp_ms: r.timestamp_ms, segment_id: r.data?.segment_id ?? null, cue: r.event_line, data: r.data })) };
  },
});

export const getSnapshot = capability({
  name: 'interviews.snapshot',
  title: 'Page snapshot at a moment',
  description:
    'The page as the participant saw it at a timestamp: the latest "snapshot" event at or before that moment. ' +
    'Use it to see what was on screen when something was said, for instance at an evidence card\'s timestamp_ms.',
  input: z.strictObject({ sessionId: SessionIdParam, timestampMs: z.number().min(0).describe('Milliseconds from the interview start') }),
  output: z.object({ session_id: z.string(), requested_ms: z.number(), timestamp_ms: z.number(), url: z.string().nullable(), title: z.string().nullable(), snapshot: z.record(z.string(), z.unknown()) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/snapshots/:timestampMs' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const { rows } = await ctx.services.db.pool.query(
      `SELECT timestamp_ms, data FROM interview_events WHERE interview_id = $1 AND event_type = 'snapshot' AND timestamp_ms <= $2 ORDER BY timestamp_ms DESC, id DESC LIMIT 1`,
      [interview.id, input.timestampMs],
    );
    if (!rows[0]) throw new NotFoundError('No page snapshot at or before that moment');
    const data = rows[0].data as Record<string, unknown>;
    return { session_id: interview.id, requested_ms: input.timestampMs, timestamp_ms: rows[0].timestamp_ms, url: (data.url as string) ?? null, title: (data.title as string) ?? null, snapshot: data };
  },
});

const EventInput = z.strictObject({
  event_type: z.string().trim().min(1).max(64),
  timestamp_ms: z.number().min(0),
  event_line: z.string().max(4000),
  data: JsonObject.default({}).describe('Free-form event data as a JSON object; a "snapshot" event carries the page\'s url and title'),
});

export const appendEvents = capability({
  name: 'interviews.append_events',
  title: 'Append interview events',
  description:
    'Appends one event ({ event_type, timestamp_ms, event_line, data }) or a batch ({ events: [...] }, up to 256 KB) to an interview. ' +
    'Use it to add page events or notes to an interview recorded outside the widget; they show in interviews.timeline.',
  input: z.strictObject({
    sessionId: SessionIdParam,
    event_type: EventInput.shape.event_type.optional(),
    timestamp_ms: EventInput.shape.timestamp_ms.optional(),
    event_line: EventInput.shape.event_line.optional(),
    data: EventInput.shape.data.optional(),
    events: z.array(EventInput).max(2000).optional(),
  }),
  output: z.object({ appended: z.number().int() }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/sessions/:sessionId/events', status: 201, bodyLimit: 256 * 1024 },
  async handler(ctx, { sessionId, events, ...single }) {
    const interview = await findInterview(ctx, sessionId);
    const hasSingle = single.event_type !== undefined || single.timestamp_ms !== undefined || single.event_line !== undefined;
    if (events && hasSingle) throw new ValidationError('Send one event or { events: [...] }, not both');
    const list = events ?? (hasSingle ? [parseOrThrow(EventInput, single)] : []);
    if (!list.length) throw new ValidationError('Send an event ({ event_type, timestamp_ms, event_line, data }) or { events: [...] }');
    if (Buffer.byteLength(JSON.stringify(list)) > 256 * 1024) throw new ValidationError('events: a batch is at most 256 KB', { code: 'batch_too_large' });
    await ctx.services.db.pool.query(
      `INSERT INTO interview_events (interview_id, event_type, timestamp_ms, event_line, data)
       SELECT $1, e.event_type, e.timestamp_ms, e.event_line, e.data FROM jsonb_to_recordset($2::jsonb) AS e(event_type text, timestamp_ms double precision, event_line text, data jsonb)`,
      [interview.id, JSON.stringify(list)],
    );
    return { appended: list.length };
  },
});
