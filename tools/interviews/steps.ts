import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { JobHelpers } from 'graphile-worker';
import { col, fn, literal, type Transaction } from 'sequelize';
import type { Services } from '../../core/context.ts';
import type { InterviewRow, ProcessingWarning } from '../../models/index.ts';
import { StepFailure, queueStep, type Step } from './pipeline.ts';
import { recordFailure, recordUsage } from '../billing/usage.ts';
import { sqlOf } from '../../core/tx.ts';

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
  work: (w: StepWork) => Promise<{ finish: (t: Transaction) => Promise<Step | null> }>,
): Promise<void> {
  const { models, db } = services;
  const others = (list: ProcessingWarning[] | null, code?: string) => (list ?? []).filter((w) => w.step !== step || (code !== undefined && w.code !== code));
  // One round trip marks the step started and reads the interview. Warnings describe the run
  // that made the current result: a step that runs again starts without its old ones.
  const [, [interview]] = await models.Interview.update(
    {
      processing_status: 'processing',
      processing_step: step,
      processing_started_at: fn('COALESCE', col('processing_started_at'), fn('now')) as unknown as Date,
      processing_warnings: literal(
        `COALESCE((SELECT jsonb_agg(w ORDER BY n) FROM jsonb_array_elements(processing_warnings) WITH ORDINALITY AS e(w, n) WHERE w->>'step' IS DISTINCT FROM ${db.sequelize.escape(step)}), '[]'::jsonb)`,
      ) as unknown as ProcessingWarning[],
    },
    { where: { id: interviewId }, returning: true },
  );
  if (!interview) return; // deleted meanwhile: nothing to do
  const warn: StepWork['warn'] = async (w) => {
    await interview.update({ processing_warnings: [...others(interview.processing_warnings, w.code), { step, ...w }] });
  };
  let dir = null as Promise<string> | null;
  const scratch = () => (dir ??= fs.mkdtemp(path.join(os.tmpdir(), `verbatim-${step}-`)));
  try {
    const { finish } = await work({ interview, scratch, warn });
    await db.sequelize.transaction(async (transaction) => {
      const fresh = await models.Interview.findByPk(interviewId, { transaction, lock: transaction.LOCK.UPDATE });
      if (!fresh) return;
      const next = await finish(transaction);
      if (next) {
        await fresh.update({ processing_step: next, processing_error_code: null, processing_error_message: null, processing_retryable: null, processing_error_action: null }, { transaction });
        await queueStep(services, interviewId, next, transaction, {}, { continuing: true });
      } else {
        // The interview's evidence as processing ends, counted in the same statement.
        const evidence = literal(`(SELECT count(*) FROM signals WHERE interview_id = ${db.sequelize.escape(interviewId)})`) as unknown as number;
        await fresh.update(
          { processing_status: 'processed', processing_step: null, processed_at: new Date(), evidence_count: evidence, processing_error_code: null, processing_error_message: null, processing_retryable: null, processing_error_action: null },
          { transaction },
        );
        await recordUsage(sqlOf(transaction), interviewId);
      }
    });
  } catch (err) {
    const failure = err instanceof StepFailure ? err : new StepFailure('internal_error', 'Processing failed unexpectedly', { retryable: true });
    const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
    const final = !failure.retryable || lastAttempt;
    await db.sequelize.transaction(async (transaction) => {
      await models.Interview.update(
        {
          processing_status: final ? 'failed' : 'processing',
          processing_error_code: failure.code,
          processing_error_message: failure.message,
          processing_retryable: failure.retryable,
          processing_error_action: failure.action,
        },
        { where: { id: interviewId }, transaction },
      );
      if (final) await recordFailure(sqlOf(transaction), interviewId, failure.code);
    });
    if (!(err instanceof StepFailure)) services.log.error('processing step crashed', { interviewId, step, error: err instanceof Error ? err.stack : String(err) });
    if (!final) throw err;
  } finally {
    const made = await dir?.catch(() => null);
    if (made) await fs.rm(made, { recursive: true, force: true });
  }
}
