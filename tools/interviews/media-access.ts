import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { NotFoundError } from '../../core/errors.ts';
import { MediaMissingError, type Storage } from '../../core/storage/index.ts';
import { readOnly } from '../common.ts';
import { SessionIdParam, findInterview } from './record.ts';
import { artifacts, mediaChunks } from './rows.ts';

/** Signed URLs stay valid this long; ask again for a fresh one. */
export const URL_TTL_SECONDS = 15 * 60;

const Download = z.object({
  name: z.string(),
  kind: z.string(),
  mime_type: z.string(),
  size: z.number(),
  url: z.string().describe('Signed URL; anyone holding it can download until expires_at'),
  expires_at: z.string(),
});
/** A signed URL of an object the store lost would only fail later: say so now. */
async function present(storage: Storage, key: string, name: string): Promise<void> {
  if (!(await storage.head(key))) throw new MediaMissingError(`The stored file ${name} of this interview`);
}

const expiry = () => new Date(Date.now() + URL_TTL_SECONDS * 1000).toISOString();

export const listArtifacts = capability({
  name: 'interviews.artifacts',
  title: 'Interview artifacts',
  description:
    'Everything stored for an interview — source recordings, merged tracks, derived audio, frames (with timestamp_ms), the text read on screen (screen_text, with timestamp_ms and text in meta), chunks — with kind, availability, ' +
    'MIME type, size and a signed download URL with its expiry. ' +
    'Use it to see what media an interview has before downloading any, or to check that processing produced its derived files.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: z.object({
    session_id: z.string(),
    artifacts: z.array(z.object({ name: z.string(), kind: z.string(), available: z.boolean(), mime_type: z.string(), size: z.number(), download_url: z.string().nullable(), expires_at: z.string().nullable(), meta: z.record(z.string(), z.unknown()).nullable() })),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/artifacts' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const { storage, db } = ctx.services;
    const [stored, chunks] = await Promise.all([
      // frame-2 before frame-10: the name's stem, then its number.
      artifacts.select(db.pool, 'interview_id = $1', [interview.id], String.raw`ORDER BY regexp_replace(name, '\d+$', ''), coalesce(substring(name from '\d+$')::int, 0), name`),
      mediaChunks.select(db.pool, 'interview_id = $1', [interview.id], 'ORDER BY type, chunk_index'),
    ]);
    const items = [
      ...stored.map((a) => ({ name: a.name, kind: a.kind, key: a.storage_key, mime_type: a.mime_type, size: Number(a.size), meta: a.meta })),
      ...chunks.map((c) => ({ name: `${c.type}-chunk-${c.chunk_index}`, kind: `${c.type}_chunk`, key: c.storage_key, mime_type: c.mime_type, size: Number(c.size), meta: { chunk_index: c.chunk_index } })),
    ];
    const out = [];
    for (const i of items) {
      const available = (await storage.head(i.key)) !== null;
      out.push({
        name: i.name,
        kind: i.kind,
        available,
        mime_type: i.mime_type,
        size: i.size,
        download_url: available ? await storage.signedUrl(i.key, URL_TTL_SECONDS) : null,
        expires_at: available ? expiry() : null,
        meta: i.meta,
      });
    }
    return { session_id: interview.id, artifacts: out };
  },
});

export const artifactUrl = capability({
  name: 'interviews.artifact_url',
  title: 'Signed URL of an artifact',
  description:
    'A signed, expiring download URL for one interview artifact by name (see interviews.artifacts), e.g. audio, frame-1, source-video. ' +
    'Use it to fetch one file once you know its name; the URL expires, so ask again rather than storing it.',
  input: z.strictObject({ sessionId: SessionIdParam, artifact: z.string().min(1).max(64) }),
  output: Download,
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/artifact/:artifact' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const [a] = await artifacts.select(ctx.services.db.pool, 'interview_id = $1 AND name = $2', [interview.id, input.artifact]);
    if (!a) throw new NotFoundError(`No artifact ${input.artifact} for this interview`);
    await present(ctx.services.storage, a.storage_key, input.artifact);
    return { name: a.name, kind: a.kind, mime_type: a.mime_type, size: Number(a.size), url: await ctx.services.storage.signedUrl(a.storage_key, URL_TTL_SECONDS), expires_at: expiry() };
  },
});

const MediaType = z.enum(['screen', 'audio']);

export const mediaFull = capability({
  name: 'interviews.media_full',
  title: 'The merged recording',
  description:
    'A signed URL of the merged screen or audio recording of a live interview (merged from its chunks during processing). ' +
    'Use it to watch or listen to a whole live interview once processing has merged it; the URL expires, so ask again rather than storing it.',
  input: z.strictObject({ sessionId: SessionIdParam, type: MediaType }),
  output: Download,
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/media/:type/full' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const [a] = await artifacts.select(ctx.services.db.pool, 'interview_id = $1 AND name = $2', [interview.id, `merged-${input.type}`]);
    if (!a) throw new NotFoundError(`No merged ${input.type} recording yet`, { action: 'Wait for processing, or POST P/sessions/:sessionId/retry-media-merge' });
    await present(ctx.services.storage, a.storage_key, a.name);
    return { name: a.name, kind: a.kind, mime_type: a.mime_type, size: Number(a.size), url: await ctx.services.storage.signedUrl(a.storage_key, URL_TTL_SECONDS), expires_at: expiry() };
  },
});

export const mediaChunk = capability({
  name: 'interviews.media_chunk',
  title: 'One recorded chunk',
  description:
    'A signed URL of one recorded screen or audio chunk, by index. ' +
    'Use it when only part of a live recording is needed or the merged file (interviews.media_full) is not ready yet; the URL expires.',
  input: z.strictObject({ sessionId: SessionIdParam, type: MediaType, chunkIndex: z.number().int().min(0).max(100_000) }),
  output: Download,
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/media/:type/:chunkIndex' },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const [c] = await mediaChunks.select(ctx.services.db.pool, 'interview_id = $1 AND type = $2 AND chunk_index = $3', [interview.id, input.type, input.chunkIndex]);
    if (!c) throw new NotFoundError(`No ${input.type} chunk ${input.chunkIndex}`);
    await present(ctx.services.storage, c.storage_key, `${c.type}-chunk-${c.chunk_index}`);
    return { name: `${c.type}-chunk-${c.chunk_index}`, kind: `${c.type}_chunk`, mime_type: c.mime_type, size: Number(c.size), url: await ctx.services.storage.signedUrl(c.storage_key, URL_TTL_SECONDS), expires_at: expiry() };
  },
});
