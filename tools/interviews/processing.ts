import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { ConflictError, DomainError, ValidationError } from '../../core/errors.ts';
import { readOnly } from '../common.ts';
import { Processing, SessionIdParam, findInterview, processingRecord } from './record.ts';
import { interviewsByIds } from './crud.ts';
import { hasTranscript, queueProcessing, queueStep } from './pipeline.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import { interviews } from './rows.ts';
import { CONFIGURE_TRANSCRIPTION, modelAccess } from './model-access.ts';
import { localTranscriptionRefusal } from './local-transcription.ts';
import type { Services } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';

const queues = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const RETRY_TRANSCRIPTION = 'Transcription is configured now: POST P/sessions/:sessionId/retry-transcription (or P/sessions/retry-failed-transcription for every failed interview)';

/**
 * Processing statuses as they stand now. `retryable` says whether retrying can succeed: a
 * transcription that failed for want of a service becomes retryable once the project or the
 * server has one, and only then does the action say to retry.
 */
async function processingNow(services: Services, rows: InterviewRow[]): Promise<Array<z.input<typeof Processing>>> {
  const unconfigured = (r: InterviewRow) => r.processing_status === 'failed' && r.processing_error_code === 'transcription_unconfigured';
  const configured = new Map<string, boolean>();
  for (const projectId of new Set(rows.filter(unconfigured).map((r) => r.project_id))) {
    // A service, or the built-in model once it can serve (turned on, or the interviews' language set to English).
    configured.set(projectId, (await modelAccess(services, projectId)).transcription !== null || (await localTranscriptionRefusal(services, projectId)) === null);
  }
  return rows.map((r) => {
    if (!unconfigured(r)) return processingRecord(r);
    const now = configured.get(r.project_id)!;
    return { ...processingRecord(r), retryable: now, action: now ? RETRY_TRANSCRIPTION : CONFIGURE_TRANSCRIPTION };
  });
}

export const getProcessing = capability({
  name: 'interviews.processing_status',
  title: 'Processing status of an interview',
  description:
    'Where an interview is in processing: status (pending, processing, processed, failed), current_step, transcription progress, ' +
    'evidence count, and on failure error_code, error_message, retryable and the action to take. Poll this instead of resubmitting.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: Processing,
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId/processing' },
  async handler(ctx, input) {
    const [status] = await processingNow(ctx.services, [await findInterview(ctx, input.sessionId)]);
    return status;
  },
});

export const batchProcessing = capability({
  name: 'interviews.processing_batch',
  title: 'Processing status of several interviews',
  description:
    'The processing status of up to 100 interviews at once; ids not in this project are listed under not_found. ' +
    'Use it to follow many interviews at once, for example after an import or a bulk retry, instead of polling interviews.processing_status one by one.',
  input: z.strictObject({ session_ids: z.array(z.string().min(1).max(64)).min(1).max(100) }),
  output: z.object({ statuses: z.array(Processing), not_found: z.array(z.string()) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'POST', path: 'P/sessions/processing-status' },
  async handler(ctx, input) {
    const rows = await interviewsByIds(ctx, input.session_ids);
    const found = new Map(rows.map((r) => [r.id, r]));
    return {
      statuses: await processingNow(ctx.services, input.session_ids.filter((id) => found.has(id)).map((id) => found.get(id)!)),
      not_found: input.session_ids.filter((id) => !found.has(id)),
    };
  },
});

async function hasAudio(sql: Sql, interviewId: string): Promise<boolean> {
  const { rows } = await sql.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM interview_artifacts WHERE interview_id = $1 AND name = 'audio') AS found`, [interviewId]);
  return rows[0].found;
}

/** Refuses to queue work for an interview whose processing is still running. */
function checkIdle(interview: { processing_status: string }): void {
  if (interview.processing_status === 'pending' || interview.processing_status === 'processing') {
    throw new ConflictError('The interview is still being processed', { code: 'interview_processing', retryable: true, action: 'Wait until processing status is processed or failed, then try again' });
  }
}

function checkFailed(interview: { processing_status: string }): void {
  checkIdle(interview);
  if (interview.processing_status !== 'failed') throw new DomainError('Only an interview whose processing failed can be retried', { code: 'not_failed' });
}

export const reprocess = capability({
  name: 'interviews.reprocess',
  title: 'Re-run evidence extraction',
  description:
    'Extracts evidence again from a processed (or failed) interview\'s transcript. Manual evidence is kept unless replace_manual_evidence is true; ' +
    'a card researchers worked on (reviewed, annotated, dismissed, in a finding or linked to a work item) keeps its id and that work when the new extraction tells the same moment, and stays as it was when it does not.',
  input: z.strictObject({ sessionId: SessionIdParam, replace_manual_evidence: z.boolean().default(false) }),
  output: Processing,
  annotations: queues,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/sessions/:sessionId/reprocess', query: ['replace_manual_evidence'] },
  async handler(ctx, input) {
    await ctx.services.billing.checkInterviewAllowed(projectOf(ctx).project);
    const services = ctx.services;
    const row = await inTransaction(services.db.pool, async (sql) => {
      const interview = await findInterview(ctx, input.sessionId, sql, true);
      checkIdle(interview);
      if (!(await hasTranscript(sql, interview.id))) {
        throw new DomainError('The interview has no transcript to extract evidence from', { code: 'transcript_missing', action: 'Retry transcription first' });
      }
      await interviews.save(sql, interview, { processing_status: 'pending', processing_step: null, processing_error_code: null, processing_error_message: null, processing_retryable: null, processing_error_action: null });
      await queueStep(services, interview.id, 'extracting', sql, { replaceManualEvidence: input.replace_manual_evidence });
      return interview;
    });
    return processingRecord(row);
  },
});

export const retryTranscription = capability({
  name: 'interviews.retry_transcription',
  title: 'Retry transcription',
  description:
    'Runs transcription (and then extraction) again for an interview whose processing failed, e.g. after configuring a model key, ' +
    'or transcribes a processed recording again, e.g. with a transcription service after the built-in model warned speech_unclear. ' +
    'Evidence extracted before is replaced, keeping what researchers did with its cards as interviews.reprocess does; manual evidence is kept. ' +
    'To start again from another step, use interviews.retry_processing.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: Processing,
  annotations: queues,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/sessions/:sessionId/retry-transcription' },
  async handler(ctx, input) {
    await ctx.services.billing.checkInterviewAllowed(projectOf(ctx).project);
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const interview = await findInterview(ctx, input.sessionId, sql, true);
      const recorded = await hasAudio(sql, interview.id);
      // A processed recording is transcribed again (a service may now hear what the built-in model could not); anything else only after a failure.
      const again = interview.processing_status === 'processed';
      if (again && !recorded) {
        throw new DomainError('The interview has no recording to transcribe: its transcript was imported or typed', { code: 'no_recording', action: 'Use interviews.reprocess to extract evidence again from the transcript' });
      }
      if (!again) checkFailed(interview);
      // The built-in model hears a recording the same way every time: again, it needs a service to hear more.
      if (again && interview.transcript_format === 'speech:built_in' && !(await modelAccess(ctx.services, interview.project_id)).transcription) {
        throw new DomainError('Transcribing again with the built-in model would give the same transcript: no transcription service is configured', {
          code: 'no_transcription_service',
          action: CONFIGURE_TRANSCRIPTION,
        });
      }
      await queueProcessing(ctx.services, interview, sql, recorded ? 'transcribing' : undefined, undefined, again ? { again } : {});
      return interview;
    });
    return processingRecord(row);
  },
});

export const retryFailedTranscriptions = capability({
  name: 'interviews.retry_failed_transcriptions',
  title: 'Retry every failed transcription',
  description:
    'Queues transcription again for every interview in the project whose processing failed. ' +
    'Use it after fixing what made transcriptions fail, such as a missing or wrong model key, to retry them all in one call.',
  input: z.strictObject({}),
  output: z.object({ retried: z.number().int(), session_ids: z.array(z.string()) }),
  annotations: queues,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/sessions/retry-failed-transcription' },
  async handler(ctx) {
    await ctx.services.billing.checkInterviewAllowed(projectOf(ctx).project);
    const { project } = projectOf(ctx);
    const ids = await inTransaction(ctx.services.db.pool, async (sql) => {
      const failed = await interviews.select(sql, `project_id = $1 AND processing_status = 'failed'`, [project.id], 'FOR UPDATE');
      for (const interview of failed) {
        await queueProcessing(ctx.services, interview, sql, (await hasAudio(sql, interview.id)) ? 'transcribing' : undefined);
      }
      return failed.map((f) => f.id);
    });
    return { retried: ids.length, session_ids: ids };
  },
});

export const retryProcessing = capability({
  name: 'interviews.retry_processing',
  title: 'Retry failed processing',
  description:
    'Runs processing again from the step that failed (media, transcription or extraction), e.g. after configuring a model key. ' +
    'Use it when interviews.processing_status reports a failure, once its cause is fixed.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: Processing,
  annotations: queues,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/sessions/:sessionId/retry-processing' },
  async handler(ctx, input) {
    await ctx.services.billing.checkInterviewAllowed(projectOf(ctx).project);
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const interview = await findInterview(ctx, input.sessionId, sql, true);
      checkFailed(interview);
      const from = (interview.processing_step ?? undefined) as Parameters<typeof queueProcessing>[3];
      await queueProcessing(ctx.services, interview, sql, from);
      return interview;
    });
    return processingRecord(row);
  },
});

export const retryMediaMerge = capability({
  name: 'interviews.retry_media_merge',
  title: 'Retry the recording merge',
  description:
    'Merges an interview\'s recorded audio and screen chunks again and re-runs processing from media derivation. ' +
    'Use it when processing failed while merging the recording\'s chunks (interviews.processing_status names the step that failed).',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: Processing,
  annotations: queues,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/sessions/:sessionId/retry-media-merge' },
  async handler(ctx, input) {
    await ctx.services.billing.checkInterviewAllowed(projectOf(ctx).project);
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const interview = await findInterview(ctx, input.sessionId, sql, true);
      checkIdle(interview);
      const { rows: [chunks] } = await sql.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM media_chunks WHERE interview_id = $1) AS found', [interview.id]);
      if (!chunks.found) throw new ValidationError('The interview has no recorded chunks to merge');
      // The transcript came from the old merge; a new one follows from the new.
      await sql.query('DELETE FROM transcript_segments WHERE interview_id = $1', [interview.id]);
      await queueProcessing(ctx.services, interview, sql, 'deriving_media');
      return interview;
    });
    return processingRecord(row);
  },
});
