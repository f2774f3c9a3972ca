import { z } from 'zod';
import { PassThrough } from 'node:stream';
import { capability } from '../../core/registry.ts';
import type { Services } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, updates } from '../common.ts';
import { artifactKey, recordArtifact } from '../interviews/artifacts.ts';
import { sniff } from '../interviews/media.ts';
import { SdkSessionId, sdkSession } from './session-access.ts';
import { checkChunkBudget } from './audio.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import { interviews, mediaChunks } from '../interviews/rows.ts';

const MB = 1024 * 1024;
const StoredBody = z.object({ storage_key: z.string(), size: z.number(), md5: z.string() });

interface UploadRow {
  id: string;
  interview_id: string;
  status: 'open' | 'joining' | 'finalized';
  parts: Record<string, { etag: string; size: number }>;
  storage_key: string | null;
}

/** A join that has not finished in this long died with its process: the upload is open again. */
const JOIN_STALE = '10 minutes';

async function currentUpload(sql: Sql, interviewId: string): Promise<UploadRow | null> {
  const { rows } = await sql.query<UploadRow>(`SELECT * FROM screen_upload_sessions WHERE interview_id = $1 AND status IN ('open', 'joining') FOR UPDATE`, [interviewId]);
  return rows[0] ?? null;
}

/** The open upload; one being joined right now is refused as busy (unless its join died). */
async function openUpload(sql: Sql, interviewId: string): Promise<UploadRow | null> {
  const upload = await currentUpload(sql, interviewId);
  if (upload?.status !== 'joining') return upload;
  const { rows } = await sql.query<{ stale: boolean }>(`SELECT updated_at < now() - interval '${JOIN_STALE}' AS stale FROM screen_upload_sessions WHERE id = $1`, [upload.id]);
  if (!rows[0].stale) {
    throw new ConflictError('The recording is being put together', { code: 'upload_finalizing', retryable: true, action: 'Poll until finalize answers the storage_key' });
  }
  return upload;
}

function checkRecording(interview: InterviewRow): void {
  if (interview.status === 'completed' || interview.status === 'abandoned') throw new DomainError('This interview has already ended', { code: 'session_ended' });
  if (interview.consent_recording !== true) {
    throw new DomainError('The participant has not agreed to be recorded', { code: 'consent_required', action: 'Record consent with consent_recording: true first' });
  }
}

/**
 * Joins the parts of an interview's open screen upload, in part order, into one recording
 * (`source-video`) and closes the upload. The parts are claimed (`joining`) and joined holding
 * no database lock, which can take a while for a long recording; the recording is recorded
 * afterwards. Returns the stored key, or null when nothing is open.
 */
export async function joinScreenUpload(services: Services, interviewId: string): Promise<string | null> {
  const { db } = services;
  const claim = await inTransaction(db.pool, async (sql) => {
    const [interview] = await interviews.select(sql, 'id = $1', [interviewId], 'FOR UPDATE');
    const upload = interview && (await openUpload(sql, interviewId));
    if (!interview || !upload) return null;
    const chunks = await mediaChunks.select(sql, `interview_id = $1 AND type = 'screen'`, [interviewId], 'ORDER BY chunk_index');
    if (!chunks.length) throw new ValidationError('The screen upload has no parts yet', { code: 'no_parts' });
    await sql.query(`UPDATE screen_upload_sessions SET status = 'joining', updated_at = now() WHERE id = $1`, [upload.id]);
    return { interview, upload, chunks };
  });
  if (!claim) return null;
  const { interview, upload, chunks } = claim;
  const reopen = () => db.pool.query(`UPDATE screen_upload_sessions SET status = 'open', updated_at = now() WHERE id = $1 AND status = 'joining'`, [upload.id]);
  const key = artifactKey(interview.project_id, interview.id, 'screen-recording.webm');
  let stored: { size: number };
  let kind: ReturnType<typeof sniff>;
  try {
    const joined = new PassThrough();
    const put = services.storage.put(key, joined, 'video/webm');
    let head: Buffer | null = null;
    try {
      for (const chunk of chunks) {
        for await (const data of await services.storage.get(chunk.storage_key)) {
          head ??= Buffer.from(data as Buffer).subarray(0, 64);
          if (!joined.write(data)) await new Promise((r) => joined.once('drain', r));
        }
      }
      joined.end();
    } catch (err) {
      joined.destroy(err as Error);
    }
    stored = await put;
    kind = head ? sniff(head) : null;
    if (!kind || kind.kind === 'audio') throw new DomainError('The uploaded parts are not a video recording', { code: 'unsupported_media_type' });
  } catch (err) {
    await services.storage.delete(key).catch(() => {});
    await reopen();
    throw err;
  }
  await inTransaction(db.pool, async (sql) => {
    await sql.query('SELECT id FROM interviews WHERE id = $1 FOR UPDATE', [interviewId]);
    await recordArtifact(services, interviewId, { name: 'source-video', kind: 'source', storage_key: key, mime_type: kind!.mime, size: stored.size, meta: { parts: chunks.length, format: kind!.format } }, sql);
    await sql.query('DELETE FROM media_chunks WHERE id = ANY($1)', [chunks.map((c) => c.id)]);
    await sql.query(`UPDATE screen_upload_sessions SET status = 'finalized', storage_key = $2, updated_at = now() WHERE id = $1`, [upload.id, key]);
  });
  await Promise.all(chunks.map((c) => services.storage.delete(c.storage_key).catch(() => {})));
  return key;
}

/** Where the interview's finished screen recording is stored, if an upload was finalized. */
export async function finalizedScreenUpload(services: Services, interviewId: string): Promise<string | null> {
  const { rows } = await services.db.pool.query<{ storage_key: string }>(
    `SELECT storage_key FROM screen_upload_sessions WHERE interview_id = $1 AND status = 'finalized' ORDER BY updated_at DESC LIMIT 1`,
    [interviewId],
  );
  return rows[0]?.storage_key ?? null;
}

export const sdkScreenUploadStart = capability({
  name: 'sdk.screen_upload_start',
  title: 'Start a screen upload (widget)',
  description: 'Opens the screen-recording upload of an interview; parts follow with upload-part and finalize joins them. Starting again returns the open upload.',
  input: z.strictObject({ session_id: SdkSessionId }),
  output: z.object({ upload_session_id: z.string() }),
  annotations: creates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rest: { method: 'POST', path: '/api/sdk/screen/upload-session/start' },
  async handler(ctx, input) {
    return inTransaction(ctx.services.db.pool, async (sql) => {
      const { interview } = await sdkSession(ctx, input.session_id, sql, true);
      checkRecording(interview);
      const open = await openUpload(sql, interview.id);
      if (open) return { upload_session_id: open.id };
      const id = newId('sup');
      await sql.query(`INSERT INTO screen_upload_sessions (id, interview_id, status) VALUES ($1, $2, 'open')`, [id, interview.id]);
      return { upload_session_id: id };
    });
  },
});

export const sdkScreenUploadPart = capability({
  name: 'sdk.screen_upload_part',
  title: 'Upload a screen part (widget)',
  description:
    'Raw bytes (Content-Type: application/octet-stream, at most 25 MB) of one part of the screen recording, numbered by X-Part-Number ' +
    'from 1 and bound to the interview by X-Session-Id. Sending a number again replaces that part.',
  input: z.strictObject({
    session_id: SdkSessionId.describe('From the X-Session-Id header'),
    part_number: z.number().int().min(1).max(10000).describe('From the X-Part-Number header'),
    body: StoredBody,
  }),
  output: z.object({ part_number: z.number().int(), etag: z.string() }),
  annotations: updates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rest: {
    method: 'POST',
    path: '/api/sdk/screen/upload-session/upload-part',
    headers: { 'x-session-id': 'session_id', 'x-part-number': 'part_number' },
    binary: { field: 'body', maxBytes: 25 * MB },
  },
  async handler(ctx, input) {
    const etag = `"${input.body.md5}"`;
    const replaced = await inTransaction(ctx.services.db.pool, async (sql) => {
      const { interview } = await sdkSession(ctx, input.session_id, sql, true);
      checkRecording(interview);
      const upload = await openUpload(sql, interview.id);
      if (!upload) throw new NotFoundError('No open screen upload for this interview', { code: 'upload_session_not_found', action: 'POST /api/sdk/screen/upload-session/start first' });
      const [previous] = await mediaChunks.select(sql, `interview_id = $1 AND type = 'screen' AND chunk_index = $2`, [interview.id, input.part_number]);
      // The replaced part's object goes once the new one is recorded.
      const replacedKey = previous?.storage_key ?? null;
      if (previous) {
        await mediaChunks.update(sql, previous.id, { storage_key: input.body.storage_key, size: input.body.size });
      } else {
        await checkChunkBudget(ctx, interview.id);
        await mediaChunks.insert(sql, { id: newId('chk'), interview_id: interview.id, type: 'screen', chunk_index: input.part_number, storage_key: input.body.storage_key, mime_type: 'video/webm', size: input.body.size });
      }
      await sql.query(
        `UPDATE screen_upload_sessions SET parts = parts || jsonb_build_object($2::text, jsonb_build_object('etag', $3::text, 'size', $4::bigint)), updated_at = now() WHERE id = $1`,
        [upload.id, String(input.part_number), etag, input.body.size],
      );
      return replacedKey;
    });
    if (replaced) await ctx.services.storage.delete(replaced).catch(() => {});
    return { part_number: input.part_number, etag };
  },
});

export const sdkScreenUploadFinalize = capability({
  name: 'sdk.screen_upload_finalize',
  title: 'Finish a screen upload (widget)',
  description: 'Joins the uploaded parts in order into the interview\'s screen recording and returns where it is stored.',
  input: z.strictObject({ session_id: SdkSessionId }),
  output: z.object({ storage_key: z.string() }),
  annotations: updates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rest: { method: 'POST', path: '/api/sdk/screen/upload-session/finalize' },
  async handler(ctx, input) {
    const { interview } = await sdkSession(ctx, input.session_id);
    if (interview.status === 'abandoned') throw new DomainError('This interview was ended', { code: 'session_ended' });
    const key = (await joinScreenUpload(ctx.services, interview.id)) ?? (await finalizedScreenUpload(ctx.services, interview.id));
    if (!key) throw new NotFoundError('No screen upload for this interview', { code: 'upload_session_not_found' });
    return { storage_key: key };
  },
});
