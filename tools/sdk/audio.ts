import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { DomainError, RateLimitedError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates } from '../common.ts';
import { UploadedFile } from '../interviews/upload.ts';
import { SdkSessionId, sdkSession } from './session-access.ts';
import { takesRecordings } from '../conductor/end.ts';
import { mediaChunks } from '../interviews/rows.ts';

const MiB = 1024 * 1024;
export const CHUNKS_PER_DAY = 500;
const CHUNKS_PER_MINUTE = 30;

/** SPEC 8: at most 500 chunks (audio and screen together) per interview over 24 hours. */
export async function checkChunkBudget(ctx: Parameters<typeof sdkSession>[0], interviewId: string): Promise<void> {
  const { rows } = await ctx.services.db.pool.query<{ day: number; minute: number }>(
    `SELECT count(*)::int AS day, count(*) FILTER (WHERE created_at > now() - interval '60 seconds')::int AS minute
       FROM media_chunks WHERE interview_id = $1 AND created_at > now() - interval '24 hours'`,
    [interviewId],
  );
  if (rows[0].day >= CHUNKS_PER_DAY) {
    throw new DomainError(`An interview takes at most ${CHUNKS_PER_DAY} chunks in 24 hours`, { code: 'chunk_limit_reached', retryable: false });
  }
  if (rows[0].minute >= CHUNKS_PER_MINUTE) {
    throw new RateLimitedError(`At most ${CHUNKS_PER_MINUTE} chunks a minute per interview`, { code: 'rate_limited', details: { reason: 'session_throttle' }, headers: { 'Retry-After': '60' } });
  }
}

export const sdkUploadAudio = capability({
  name: 'sdk.upload_audio_chunk',
  title: 'Upload an audio chunk (widget)',
  description:
    'Multipart form: `session_id`, `chunk_index` (0-based), optional `started_ms` and `audio` (a self-contained recording piece, at most 10 MiB). ' +
    'Chunks are merged in index order when the interview is processed (at their `started_ms` when given, with silence between); sending an index again replaces it.',
  input: z.strictObject({
    session_id: SdkSessionId,
    chunk_index: z.coerce.number().int().min(0).max(100000),
    started_ms: z.coerce.number().int().min(0).max(24 * 3600_000).optional().describe('Where the piece starts on the interview\'s clock (the elapsed_ms of the conductor\'s frames); the merged recording places it there'),
    audio: UploadedFile,
  }),
  output: z.object({ session_id: z.string(), chunk_index: z.number().int(), size: z.number() }),
  annotations: creates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rest: {
    method: 'POST',
    path: '/api/sdk/audio/upload',
    status: 201,
    multipart: { audio: { kind: 'media', maxBytes: 10 * MiB, accept: 'audio' } },
  },
  async handler(ctx, input) {
    const { interview } = await sdkSession(ctx, input.session_id);
    if (!takesRecordings(interview)) {
      throw new DomainError('This interview has already ended', { code: 'session_ended' });
    }
    if (interview.consent_recording !== true) {
      throw new DomainError('The participant has not agreed to be recorded', { code: 'consent_required', action: 'POST /api/sdk/sessions/:sessionId/consent with consent_recording: true first' });
    }
    await checkChunkBudget(ctx, interview.id);
    const pool = ctx.services.db.pool;
    const [previous] = await mediaChunks.select(pool, `interview_id = $1 AND type = 'audio' AND chunk_index = $2`, [interview.id, input.chunk_index]);
    if (previous) {
      await ctx.services.storage.delete(previous.storage_key).catch(() => {});
      await mediaChunks.update(pool, previous.id, { storage_key: input.audio.storage_key, mime_type: input.audio.mime_type, size: input.audio.size, started_ms: input.started_ms ?? null });
    } else {
      await mediaChunks.insert(pool, {
        id: newId('chk'),
        interview_id: interview.id,
        type: 'audio',
        chunk_index: input.chunk_index,
        storage_key: input.audio.storage_key,
        mime_type: input.audio.mime_type,
        size: input.audio.size,
        started_ms: input.started_ms ?? null,
      });
    }
    return { session_id: interview.id, chunk_index: input.chunk_index, size: input.audio.size };
  },
});
