import { z } from 'zod';
import type { Sql } from '../../core/tx.ts';
import { interviews } from './rows.ts';
import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';
import { NotFoundError } from '../../core/errors.ts';
import { Timestamp, iso, isoRequired } from '../common.ts';

/** The interview (session) record. Every interview response wraps it as `{ session }`. */
export const Session = z
  .object({
    id: z.string(),
    project_ref: z.string(),
    study_ref: z.string().nullable(),
    intake_ref: z.string().nullable(),
    screener_response_id: z.string().nullable(),
    source: z.string().describe('widget, upload, import or api'),
    status: z.string().describe('created, in_progress, completed or abandoned'),
    processing_status: z.string().describe('not_started, pending, processing, processed or failed'),
    processing_step: z.string().nullable().describe('deriving_media, reading_screen (videos), transcribing or extracting while processing'),
    interview_mode: z.string().nullable(),
    participant_name: z.string().nullable(),
    participant_email: z.string().nullable(),
    summary: z.string().nullable(),
    consent_recording: z.boolean().nullable(),
    consent_data_use: z.boolean().nullable(),
    consent_version: z.string().nullable(),
    started_at: z.string().nullable(),
    ended_at: z.string().nullable(),
    duration_seconds: z.number().nullable(),
    import_source: z.string().nullable(),
    transcript_format: z.string().nullable().describe('How the transcript was made: an import\'s format (with +estimated_timing when its times were estimated), or speech:service / speech:built_in for a recording transcribed by a transcription service or by the built-in English model'),
    evidence_count: z.number().int(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Session' });
export type SessionRecord = z.input<typeof Session>;

export function sessionRecord(i: InterviewRow, projectRef: string): SessionRecord {
  return {
    id: i.id,
    project_ref: projectRef,
    study_ref: i.study_id,
    intake_ref: i.intake_id,
    screener_response_id: i.intake_response_id,
    source: i.source,
    status: i.status,
    processing_status: i.processing_status,
    processing_step: i.processing_step,
    interview_mode: i.interview_mode,
    participant_name: i.participant_name,
    participant_email: i.participant_email,
    summary: i.summary,
    consent_recording: i.consent_recording,
    consent_data_use: i.consent_data_use,
    consent_version: i.consent_version,
    started_at: iso(i.started_at),
    ended_at: iso(i.ended_at),
    duration_seconds: i.duration_seconds,
    import_source: i.import_source,
    transcript_format: i.transcript_format,
    evidence_count: i.evidence_count,
    created_at: isoRequired(i.created_at),
    updated_at: isoRequired(i.updated_at),
  };
}

export const SessionIdParam = z.string().min(1).max(64).describe('Interview (session) id');

/** An interview of the caller's project; `lock` takes it FOR UPDATE in the caller's transaction. Another project's interview is not found. */
export async function findInterview(ctx: Ctx, id: string, sql: Sql = ctx.services.db.pool, lock = false): Promise<InterviewRow> {
  const [row] = await interviews.select(sql, 'id = $1 AND project_id = $2', [id, projectOf(ctx).project.id], lock ? 'FOR UPDATE' : '');
  if (!row) throw new NotFoundError('Interview not found');
  return row;
}

/** The processing status as `GET P/sessions/:id/processing` answers it. */
export const Processing = z.object({
  session_id: z.string(),
  status: z.enum(['not_started', 'pending', 'processing', 'processed', 'failed']),
  current_step: z.string().nullable(),
  transcription: z.object({ total: z.number().int(), completed: z.number().int() }),
  evidence_count: z.number().int(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  retryable: z.boolean().nullable(),
  action: z.string().nullable(),
  warnings: z
    .array(z.object({ step: z.string(), code: z.string(), message: z.string(), action: z.string().nullable() }))
    .describe('What processing did differently than configured, e.g. model_key_unreadable: the project\'s model key did not open and the local extractor ran instead'),
  started_at: z.string().nullable(),
  processed_at: z.string().nullable(),
  updated_at: Timestamp,
});

export function processingRecord(i: InterviewRow): z.input<typeof Processing> {
  return {
    session_id: i.id,
    status: i.processing_status as z.input<typeof Processing>['status'],
    current_step: i.processing_step,
    transcription: { total: i.transcription_total, completed: i.transcription_completed },
    evidence_count: i.evidence_count,
    error_code: i.processing_error_code,
    error_message: i.processing_error_message,
    retryable: i.processing_retryable,
    action: i.processing_error_action,
    warnings: i.processing_warnings ?? [],
    started_at: iso(i.processing_started_at),
    processed_at: iso(i.processed_at),
    updated_at: isoRequired(i.updated_at),
  };
}
