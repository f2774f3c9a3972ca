import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf, projectOf, type Ctx } from '../../core/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, deletes, Success } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { Session, sessionRecord } from './record.ts';
import { activeStudy } from './crud.ts';
import { importFields } from './import.ts';
import { recordArtifact } from './artifacts.ts';
import { queueProcessing } from './pipeline.ts';
import { sniff } from './media.ts';
import { inTransaction } from '../../core/tx.ts';
import { interviews, mediaUploads } from './rows.ts';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
/** 64 MiB parts: 20 GiB is 320 parts, well under S3's 10,000, and each part retries cheaply. */
const PART_SIZE = 64 * MiB;
const TTL_SECONDS = 60 * 60;
const EXPIRES_DAYS = 2;

const Upload = z.object({
  id: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size: z.number(),
  part_size: z.number(),
  part_count: z.number().int(),
  status: z.enum(['open', 'completed', 'aborted']),
  expires_at: z.string(),
});

async function findUpload(ctx: Ctx, uploadId: string) {
  const { project } = projectOf(ctx);
  const [upload] = await mediaUploads.select(ctx.services.db.pool, 'id = $1 AND project_id = $2', [uploadId, project.id]);
  if (!upload) throw new NotFoundError('Upload not found');
  if (upload.status !== 'open') throw new ConflictError(`The upload is ${upload.status}`, { code: 'upload_closed' });
  if (upload.expires_at.getTime() < Date.now()) throw new ConflictError('The upload has expired; start a new one', { code: 'upload_expired' });
  return upload;
}

const uploadRecord = (u: { id: string; filename: string; content_type: string; size: number; part_size: number; part_count: number; status: 'open' | 'completed' | 'aborted'; expires_at: Date }) => ({
  id: u.id,
  filename: u.filename,
  content_type: u.content_type,
  size: Number(u.size),
  part_size: Number(u.part_size),
  part_count: u.part_count,
  status: u.status,
  expires_at: u.expires_at.toISOString(),
});

export const createMediaUpload = capability({
  name: 'interviews.create_media_upload',
  title: 'Start a resumable recording upload',
  description:
    'Starts a direct-to-storage upload of a large recording (up to 20 GiB) in parts: then ask for part URLs, PUT each part to its URL ' +
    '(keep the ETag response header), and complete with the part list to create the interview.',
  input: z.strictObject({
    filename: z.string().trim().min(1).max(255),
    content_type: z.string().regex(/^(audio|video)\/[\w.+-]+$/, 'must be an audio/* or video/* type'),
    size: z.number().int().min(1).max(20 * GiB, 'must be at most 20 GiB'),
  }),
  output: z.object({ upload: Upload }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  mcp: false,
  rest: { method: 'POST', path: 'P/sessions/media-uploads', status: 201 },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const id = newId('upl');
    const key = `projects/${project.id}/uploads/${id}/${input.filename.replace(/[^\w.-]+/g, '_')}`;
    const storeId = await ctx.services.storage.createMultipart(key, input.content_type);
    const upload = await mediaUploads.insert(ctx.services.db.pool, {
      id,
      project_id: project.id,
      storage_key: key,
      store_upload_id: storeId,
      filename: input.filename,
      content_type: input.content_type,
      size: input.size,
      part_size: PART_SIZE,
      part_count: Math.ceil(input.size / PART_SIZE),
      status: 'open',
      created_by: principalOf(ctx).userId,
      expires_at: new Date(Date.now() + EXPIRES_DAYS * 86_400_000),
    });
    return { upload: uploadRecord(upload) };
  },
});

export const mediaUploadParts = capability({
  name: 'interviews.media_upload_parts',
  title: 'URLs for upload parts',
  description: 'Signed PUT URLs (valid one hour) for the given part numbers of an open upload; ask again to resume after a break.',
  input: z.strictObject({ uploadId: z.string().min(1).max(64), part_numbers: z.array(z.number().int().min(1)).min(1).max(1000) }),
  output: z.object({ parts: z.array(z.object({ part_number: z.number().int(), url: z.string(), expires_at: z.string() })) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'write',
  access: 'project',
  mcp: false,
  rest: { method: 'POST', path: 'P/sessions/media-uploads/:uploadId/parts' },
  async handler(ctx, input) {
    const upload = await findUpload(ctx, input.uploadId);
    const bad = input.part_numbers.find((n) => n > upload.part_count);
    if (bad) throw new ValidationError(`part_numbers: ${bad} is beyond the last part (${upload.part_count})`);
    const expires_at = new Date(Date.now() + TTL_SECONDS * 1000).toISOString();
    const parts = [];
    for (const n of [...new Set(input.part_numbers)]) {
      parts.push({ part_number: n, url: await ctx.services.storage.partUrl(upload.storage_key, upload.store_upload_id, n, TTL_SECONDS), expires_at });
    }
    return { parts };
  },
});

export const completeMediaUpload = capability({
  name: 'interviews.complete_media_upload',
  title: 'Finish a resumable upload',
  description: 'Assembles the uploaded parts, checks the file is audio or video by its content, and creates the interview queued for processing.',
  input: z.strictObject({
    uploadId: z.string().min(1).max(64),
    parts: z.array(z.strictObject({ part_number: z.number().int().min(1), etag: z.string().min(1).max(200) })).min(1).max(10_000),
    ...importFields,
  }),
  output: z.object({ session: Session, queued: z.literal(true) }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  mcp: false,
  rest: { method: 'POST', path: 'P/sessions/media-uploads/:uploadId/complete', status: 201 },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const { db, storage } = ctx.services;
    const upload = await findUpload(ctx, input.uploadId);
    const numbers = input.parts.map((p) => p.part_number).sort((a, b) => a - b);
    if (numbers.length !== upload.part_count || numbers.some((n, i) => n !== i + 1)) {
      throw new ValidationError(`parts: send all ${upload.part_count} parts, numbered 1 to ${upload.part_count}`);
    }
    await ctx.services.billing.checkInterviewAllowed(project);
    const study = await activeStudy(ctx, input.study_ref ?? input.study_id);
    let stored;
    try {
      stored = await storage.completeMultipart(upload.storage_key, upload.store_upload_id, input.parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })));
    } catch (err) {
      throw new ValidationError(`parts: ${err instanceof Error ? err.message : 'the parts could not be assembled'}`);
    }
    const head = await new Promise<Buffer>((resolve, reject) => {
      storage.get(upload.storage_key).then((stream) => {
        stream.once('data', (c: Buffer) => {
          resolve(c.subarray(0, 512));
          stream.destroy();
        });
        stream.once('error', reject);
      }, reject);
    });
    const kind = sniff(head);
    if (!kind) {
      await storage.delete(upload.storage_key);
      await mediaUploads.save(ctx.services.db.pool, upload, { status: 'aborted' });
      throw new ValidationError('The uploaded file is not a supported audio or video file', { code: 'unsupported_media_type' });
    }
    const interview = await inTransaction(db.pool, async (sql) => {
      const row = await interviews.insert(sql,
        {
          id: newId('int'),
          project_id: project.id,
          study_id: study?.id ?? null,
          source: 'upload',
          status: 'completed',
          processing_status: 'pending',
          interview_mode: kind.kind === 'audio' ? 'voice' : 'video',
          participant_name: input.participant_name ?? null,
          participant_email: input.participant_email ?? null,
          import_source: input.import_source ?? null,
          created_by: principalOf(ctx).userId,
        },
      );
      await recordArtifact(ctx.services, row.id, { name: 'source-media', kind: 'source', storage_key: upload.storage_key, mime_type: kind.mime, size: stored.size, meta: { filename: upload.filename, format: kind.format } }, sql);
      await mediaUploads.save(sql, upload, { status: 'completed', interview_id: row.id });
      await queueProcessing(ctx.services, row, sql, 'deriving_media');
      return row;
    });
    return { session: sessionRecord(interview, projectRefOf(ctx)), queued: true as const };
  },
});

export const abortMediaUpload = capability({
  name: 'interviews.abort_media_upload',
  title: 'Abandon a resumable upload',
  description: 'Abandons an open upload and deletes its parts.',
  input: z.strictObject({ uploadId: z.string().min(1).max(64) }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'project',
  mcp: false,
  rest: { method: 'DELETE', path: 'P/sessions/media-uploads/:uploadId' },
  async handler(ctx, input) {
    const upload = await findUpload(ctx, input.uploadId);
    await ctx.services.storage.abortMultipart(upload.storage_key, upload.store_upload_id);
    await mediaUploads.save(ctx.services.db.pool, upload, { status: 'aborted' });
    return { success: true };
  },
});

