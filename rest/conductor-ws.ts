import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import type { Ctx, Services } from '../core/context.ts';
import { AppError, AuthenticationError, DomainError, ValidationError } from '../core/errors.ts';
import { refuseDeepJson, refuseUnsafeText } from '../core/input-guard.ts';
import { projectForKey } from '../auth/sdk-key.ts';
import { sdkSession, elapsedMs, recordEvent } from '../tools/sdk/session-access.ts';
import { requestOriginOf } from '../tools/sdk/origin-guard.ts';
import { conduct, stateOf, type Input, type Outcome } from '../tools/conductor/engine.ts';
import { armFinalization, isEnded } from '../tools/conductor/end.ts';
import { sessionTokenValid } from '../tools/conductor/token.ts';
import { segmentsOf } from '../tools/conductor/script.ts';
import { transcribeAnswer } from '../tools/conductor/voice-answer.ts';
import { inTransaction } from '../core/tx.ts';
import { interviews } from '../tools/interviews/rows.ts';
import { studyById } from '../tools/studies/record.ts';

const PATH = /^\/api\/sdk\/conductor\/([^/]+)\/ws$/;
const MAX_FRAME_BYTES = 64 * 1024;

/** What the widget sends over the socket. */
const Frame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('answer'), text: z.string().trim().min(1).max(4000) }),
  z.object({ type: z.literal('voice_answer'), chunk_index: z.number().int().min(0).max(100000) }),
  // What the realtime model transcribed of the participant, and when they began to speak.
  z.object({ type: z.literal('spoken_answer'), text: z.string().trim().min(1).max(4000), started_ms: z.number().int().min(0).max(24 * 3600_000).optional() }),
  z.object({ type: z.literal('observe_done') }),
  z.object({ type: z.literal('end') }),
  z.object({ type: z.literal('ping') }),
  z.object({
    type: z.literal('event'),
    event_type: z.string().min(1).max(64),
    event_line: z.string().max(2000),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
]);

function refuse(socket: Duplex, err: unknown): void {
  const e = err instanceof AppError ? err : new AppError(500, 'Internal error');
  const body = JSON.stringify({ error: e.message, code: e.code, retryable: e.retryable ?? false, action: e.action });
  socket.end(`HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * `GET /api/sdk/conductor/:sessionId/ws`: the live interview. Authenticated by the SDK key and
 * the session token from start (or a runtime token), guarded by the study's allowed origins.
 * All state lives in Postgres, so a participant may reconnect to any process and resume.
 */
export function attachConductor(server: Server, services: Services): { close(): void } {
  // ws loads with the first interview socket, not in every process.
  let wss: WebSocketServer | null = null;
  const socketServer = async () => {
    const { WebSocketServer } = await import('ws');
    return (wss ??= new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES }));
  };
  server.on('upgrade', (req, socket, head) => {
    let url: URL;
    let sessionId: string;
    try {
      url = new URL(req.url ?? '/', 'http://local');
      const match = PATH.exec(url.pathname);
      if (!match) return void socket.destroy();
      sessionId = decodeURIComponent(match[1]);
    } catch {
      return refuse(socket, new ValidationError('The socket address is malformed'));
    }
    void (async () => {
      const sdk = await projectForKey(services, url.searchParams.get('key') ?? (req.headers['x-project-key'] as string | undefined) ?? null);
      const ctx: Ctx = {
        requestId: randomUUID(),
        surface: 'rest',
        principal: sdk.principal,
        org: sdk.org,
        project: sdk.project,
        services,
        log: services.log.child({ conductor: sessionId }),
        requestOrigin: requestOriginOf(req.headers),
      };
      const { interview } = await sdkSession(ctx, sessionId);
      if (!(await sessionTokenValid(services, interview, url.searchParams.get('session_token')))) {
        throw new AuthenticationError('The session token is not valid for this interview', { code: 'invalid_session_token', action: 'POST /api/sdk/conductor/:sessionId/start for a fresh ws_url' });
      }
      // Only start opens an interview (after consent); a token alone does not.
      if (interview.status !== 'in_progress' && !isEnded(interview)) {
        throw new DomainError('The interview has not started', { code: 'session_not_started', action: 'POST /api/sdk/conductor/:sessionId/start first' });
      }
      return { ctx, sockets: await socketServer() };
    })().then(
      ({ ctx, sockets }) => sockets.handleUpgrade(req, socket, head, (ws) => serve(ws, ctx, sessionId)),
      (err) => refuse(socket, err),
    );
  });
  return { close: () => wss?.clients.forEach((ws) => ws.terminate()) };
}

function serve(ws: WebSocket, ctx: Ctx, sessionId: string): void {
  const { services } = ctx;
  const send = (frame: Record<string, unknown>) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(frame));
  const report = (o: Outcome) => {
    for (const m of o.messages) send({ type: 'message', ...m });
    send({ type: 'state', awaiting: o.state.awaiting, segment: o.segment, finished: o.state.finished, elapsed_ms: o.elapsed_ms });
    if (o.ended) send({ type: 'ended', session_id: sessionId });
  };
  const step = (input: Input) => conduct(services, sessionId, input);

  // One frame at a time, in arrival order.
  let queue: Promise<unknown> = (async () => {
    const history = await services.db.pool.query(
      `SELECT role, content AS text, segment_id, timestamp_ms FROM interview_messages WHERE interview_id = $1 ORDER BY timestamp_ms, id`,
      [sessionId],
    );
    const chunks = await services.db.pool.query<{ next: number }>(`SELECT coalesce(max(chunk_index) + 1, 0)::int AS next FROM media_chunks WHERE interview_id = $1 AND type = 'audio'`, [sessionId]);
    await interviews.update(services.db.pool, sessionId, { finalize_after: null, conductor_seen_at: new Date() });
    send({ type: 'hello', session_id: sessionId, resumed: history.rows.length > 0, messages: history.rows, next_audio_chunk: chunks.rows[0].next });
    report(await step({ type: 'start' }));
  })().catch((err) => fail(err));

  const fail = (err: unknown, extra: Record<string, unknown> = {}) => {
    if (err instanceof AppError) send({ type: 'error', error: err.message, code: err.code, retryable: err.retryable ?? false, action: err.action, ...extra });
    else {
      ctx.log.error('conductor frame failed', { error: err instanceof Error ? err.stack : String(err) });
      send({ type: 'error', error: 'Internal error', code: 'internal_error', retryable: true });
    }
  };

  /** A recorded answer: transcribed, shown to the participant, then handled as their typed answer would be. */
  const voiceAnswer = async (chunkIndex: number) => {
    try {
      const [interview] = await interviews.select(services.db.pool, 'id = $1', [sessionId]);
      if (!interview) return;
      if (stateOf(interview).awaiting !== 'answer') throw new DomainError('The conductor is not waiting for an answer now', { code: 'not_expecting_answer' });
      send({ type: 'transcribing', chunk_index: chunkIndex });
      const { text, spoken } = await transcribeAnswer(services, sessionId, interview.project_id, chunkIndex);
      send({ type: 'transcript', chunk_index: chunkIndex, text });
      report(await step({ type: 'answer', text, spoken }));
    } catch (err) {
      fail(err, { chunk_index: chunkIndex });
    }
  };

  ws.on('message', (raw) => {
    queue = queue.then(async () => {
      let frame: z.output<typeof Frame>;
      try {
        const value: unknown = JSON.parse(String(raw));
        // The same refusals as every JSON body: no recursion 10,000 deep, no text Postgres cannot hold.
        refuseDeepJson(value);
        refuseUnsafeText(value);
        frame = Frame.parse(value);
      } catch (err) {
        if (err instanceof AppError) return fail(err);
        return send({ type: 'error', error: 'Unrecognised frame: send {"type":"answer","text":...}, voice_answer, spoken_answer, observe_done, event, end or ping', code: 'invalid_frame', retryable: false });
      }
      if (frame.type === 'ping') return send({ type: 'pong' });
      if (frame.type === 'event') {
        const [interview] = await interviews.select(services.db.pool, 'id = $1', [sessionId]);
        if (!interview) return;
        const state = stateOf(interview);
        const study = interview.study_id ? await studyById(interview.study_id, services.db.pool) : null;
        await recordEvent(services, sessionId, {
          type: frame.event_type,
          timestampMs: elapsedMs(interview),
          line: frame.event_line,
          data: { ...frame.data, segment_id: segmentsOf(study?.script_json)[state.segment]?.id ?? null, segment_mode: state.awaiting === 'observe' ? 'observe' : null },
        });
        return;
      }
      if (frame.type === 'voice_answer') return voiceAnswer(frame.chunk_index);
      if (frame.type === 'spoken_answer') {
        return report(await step({ type: 'answer', text: frame.text, spoken: { chunk_index: null, started_ms: frame.started_ms ?? null } }));
      }
      report(await step(frame));
    }).catch((err) => fail(err));
  });

  ws.on('close', () => {
    void queue.finally(() =>
      inTransaction(services.db.pool, async (sql) => {
        const [interview] = await interviews.select(sql, 'id = $1', [sessionId], 'FOR UPDATE');
        if (interview && !isEnded(interview) && !interview.finalize_after) await armFinalization(services, interview, sql);
      })
        .catch((err) => ctx.log.warn('could not arm finalisation', { error: String(err) })),
    );
  });
}
