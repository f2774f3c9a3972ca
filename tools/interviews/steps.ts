import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { JobHelpers } from 'graphile-worker';
import type { Services } from '../../core/context.ts';
import type { InterviewRow, ProcessingWarning } from '../../models/index.ts';
import { StepFailure, queueStep, type Step } from './pipeline.ts';
import { recordFailure, recordUsage } from '../billing/usage.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import { interviews } from './rows.ts';
import { COUNTED } from '../evidence/count.ts';

export interface StepWork {
  interview: InterviewRow;
  /** A scratch folder for this run, made on first call and removed afterwards (extraction needs none). */
  scratch(): Promise<string>;
  /** Records a warning on the processing status at once (what this step did differently than configured). */
  warn(w: Omit<ProcessingWarning, 'step'>): Promise<void>;
}

/**
 * Runs one processing step of one interview. The work returns the next step (or null when
 * processing is done) and may write rows in the given transaction; the status change and
 * the next job commit with them. A StepFailure that cannot be retried fails the interview
 * at once; anything else is retried by graphile-worker with backoff and fails the
 * interview only when the last attempt fails.
 */
export async function runStep(
  services: Services,
  interviewId: string,
  step: Step,
  helpers: JobHelpers,
  work: (w: StepWork) => Promise<{ finish: (sql: Sql) => Promise<Step | null> }>,
): Promise<void> {
  const pool = services.db.pool;
  const others = (list: ProcessingWarning[] | null, code?: string) => (list ?? []).filter((w) => w.step !== step || (code !== undefined && w.code !== code));
  // One round trip marks the step started and reads the interview. Warnings describe the run
  // that made the current result: a step that runs again starts without its old ones.
  const { rows: [interview] } = await pool.query<InterviewRow>({
    name: 'step_start',
    text: `UPDATE interviews SET processing_status = 'processing', processing_step = $2, processing_started_at = COALESCE(processing_started_at, now()),
             processing_warnings = COALESCE((SELECT jsonb_agg(w ORDER BY n) FROM jsonb_array_elements(processing_warnings) WITH ORDINALITY AS e(w, n)
                                             WHERE w->>'step' IS DISTINCT FROM $2), '[]'::jsonb),
             updated_at = now()
           WHERE id = $1 RETURNING ${interviews.columns}`,
    values: [interviewId, step],
  });
  if (!interview) return; // deleted meanwhile: nothing to do
  const warn: StepWork['warn'] = async (w) => {
    await interviews.save(pool, interview, { processing_warnings: [...others(interview.processing_warnings, w.code), { step, ...w }] });
  };
  let dir = null as Promise<string> | null;
  const scratch = () => (dir ??= fs.mkdtemp(path.join(os.tmpdir(), `verbatim-${step}-`)));
  try {
    const { finish } = await work({ interview, scratch, warn });
    await inTransaction(pool, async (sql) => {
      const { rows: [fresh] } = await sql.query<{ id: string }>('SELECT id FROM interviews WHERE id = $1 FOR UPDATE', [interviewId]);
      if (!fresh) return;
      const next = await finish(sql);
      if (next) {
        await interviews.update(sql, interviewId, { processing_step: next, processing_error_code: null, processing_error_message: null, processing_retryable: null, processing_error_action: null });
        await queueStep(services, interviewId, next, sql, {}, { continuing: true });
      } else {
        // The interview's evidence as processing ends (dismissed cards kept from before are not counted), in the same statement.
        await sql.query({
          name: 'step_processed',
          text: `UPDATE interviews SET processing_status = 'processed', processing_step = NULL, processed_at = now(),
                   evidence_count = ${COUNTED}, processing_error_code = NULL,
                   processing_error_message = NULL, processing_retryable = NULL, processing_error_action = NULL, updated_at = now()
                 WHERE id = $1`,
          values: [interviewId],
        });
        await recordUsage(sql, interviewId);
      }
    });
  } catch (err) {
    const failure = err instanceof StepFailure ? err : new StepFailure('internal_error', 'Processing failed unexpectedly', { retryable: true });
    const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
    const final = !failure.retryable || lastAttempt;
    await inTransaction(pool, async (sql) => {
      await interviews.update(sql, interviewId, {
        processing_status: final ? 'failed' : 'processing',
        processing_error_code: failure.code,
        processing_error_message: failure.message,
        processing_retryable: failure.retryable,
        processing_error_action: failure.action,
      });
      if (final) await recordFailure(sql, interviewId, failure.code);
    });
    if (!(err instanceof StepFailure)) services.log.error('processing step crashed', { interviewId, step, error: err instanceof Error ? err.stack : String(err) });
    if (!final) throw err;
  } finally {
    const made = await dir?.catch(() => null);
    if (made) await fs.rm(made, { recursive: true, force: true });
  }
}
