import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf, projectOf } from '../../core/context.ts';
import { ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { Session, sessionRecord } from './record.ts';
import { activeStudy } from './crud.ts';
import { importFields } from './import.ts';
import { recordArtifact } from './artifacts.ts';
import { queueProcessing } from './pipeline.ts';
import { inTransaction } from '../../core/tx.ts';
import { interviews } from './rows.ts';

const MiB = 1024 * 1024;
export const UploadedFile = z.object({ storage_key: z.string(), size: z.number(), mime_type: z.string(), format: z.string(), filename: z.string() });

export const uploadMedia = capability({
  name: 'interviews.upload_media',
  title: 'Upload an interview recording',
  description:
    'Multipart upload of a recording: `media` or `audio` (at most 25 MiB: MP3, M4A, WAV, OGG, FLAC, AAC, WebM) plus an optional ' +
    '`video` (at most 100 MiB: MP4, WebM, MPEG); a single `video` alone is accepted too. Files are checked by their content. ' +
    'The interview is queued for media derivation, transcription and evidence extraction.',
  input: z.strictObject({ media: UploadedFile.optional(), audio: UploadedFile.optional(), video: UploadedFile.optional(), ...importFields }),
  output: z.object({ session: Session, queued: z.literal(true) }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  mcp: false,
  rest: {
    method: 'POST',
    path: 'P/sessions/upload-video',
    status: 201,
    multipart: {
      media: { kind: 'media', maxBytes: 25 * MiB, accept: 'either' },
      audio: { kind: 'media', maxBytes: 25 * MiB, accept: 'audio' },
      video: { kind: 'media', maxBytes: 100 * MiB, accept: 'video' },
    },
  },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const { db } = ctx.services;
    if (input.media && (input.audio || input.video)) throw new ValidationError('Send `media` alone, or `audio` with an optional `video`');
    if (!input.media && !input.audio && !input.video) throw new ValidationError('Send a recording as `media`, `audio` or `video`');
    await ctx.services.billing.checkInterviewAllowed(project);
    const study = await activeStudy(ctx, input.study_ref ?? input.study_id);
    const parts = [
      ['source-media', input.media],
      ['source-audio', input.audio],
      ['source-video', input.video],
    ] as const;
    const interview = await inTransaction(db.pool, async (sql) => {
      const row = await interviews.insert(sql,
        {
          id: newId('int'),
          project_id: project.id,
          study_id: study?.id ?? null,
          source: 'upload',
          status: 'completed',
          processing_status: 'pending',
          // As the resumable upload says it: by what the file is, not by the field it came in.
          interview_mode: input.video || input.media?.mime_type.startsWith('video/') ? 'video' : 'voice',
          participant_name: input.participant_name ?? null,
          participant_email: input.participant_email ?? null,
          import_source: input.import_source ?? null,
          created_by: principalOf(ctx).userId,
        },
      );
      for (const [name, file] of parts) {
        if (!file) continue;
        await recordArtifact(ctx.services, row.id, { name, kind: 'source', storage_key: file.storage_key, mime_type: file.mime_type, size: file.size, meta: { filename: file.filename, format: file.format } }, sql);
      }
      await queueProcessing(ctx.services, row, sql, 'deriving_media');
      return row;
    });
    return { session: sessionRecord(interview, projectRefOf(ctx)), queued: true as const };
  },
});
