import type { Sql } from './tx.ts';

export interface JobOptions {
  /** Same key replaces a job not yet started, so a step is never queued twice. */
  jobKey?: string;
  maxAttempts?: number;
  runAt?: Date;
  /** Lower runs first (graphile-worker's order is priority, then run_at); default 0. */
  priority?: number;
}

/**
 * Enqueues a graphile-worker job through the caller's transaction (or on the pool), so a row
 * and the job that processes it commit together or not at all.
 */
export async function addJob(sql: Sql, task: string, payload: Record<string, unknown>, opts: JobOptions = {}): Promise<void> {
  await sql.query({
    name: 'add_job',
    text: `SELECT graphile_worker.add_job($1, $2::json, job_key => $3, max_attempts => $4, run_at => $5, job_key_mode => 'replace', priority => $6)`,
    values: [task, JSON.stringify(payload), opts.jobKey ?? null, opts.maxAttempts ?? 5, opts.runAt ?? new Date(), opts.priority ?? 0],
  });
}
