import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type pg from 'pg';
import { EventEmitter } from 'node:events';
import { makeWorkerUtils, run, runMigrations, Logger as WorkerLogger, type Runner, type Task, type TaskList, type WorkerEvents } from 'graphile-worker';
import type { Logger } from '../core/logger.ts';
import type { Services } from '../core/context.ts';
import { stopTranscriber } from '../tools/interviews/transcriber-client.ts';

/**
 * A task file exports `task`: (services) → graphile-worker task; its file name is its
 * identifier. It may also export `cron` (a crontab schedule) to run periodically.
 */
export type TaskFactory = (services: Services) => Task;

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tasks');

export async function loadTasks(services: Services): Promise<{ taskList: TaskList; crontab: string }> {
  const taskList: TaskList = {};
  const cron: string[] = [];
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).sort() : [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { task?: TaskFactory; cron?: string };
    const name = file.replace(/\.ts$/, '');
    if (mod.task) taskList[name] = mod.task(services);
    if (mod.task && mod.cron) cron.push(`${mod.cron} ${name}`);
  }
  return { taskList, crontab: cron.join('\n') };
}

/**
 * graphile-worker logs through ours, quietly: completed jobs are not news. A failed job that
 * will run again (a busy provider, a retryable step) is a warning; its last failure is an error.
 */
export function workerLogger(log: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    const { failure, job, error, ...rest } = (meta ?? {}) as { failure?: boolean; job?: { id: string; task_identifier: string; attempts: number; max_attempts: number }; error?: unknown } & Record<string, unknown>;
    if (failure && job) {
      const retried = job.attempts < job.max_attempts;
      const reason = error instanceof Error ? error.message : String(error);
      const fields = { job_id: job.id, task: job.task_identifier, attempt: job.attempts, max_attempts: job.max_attempts, error: reason };
      if (retried) log.warn(`worker: ${job.task_identifier} failed (attempt ${job.attempts} of ${job.max_attempts}), will retry: ${reason}`, fields);
      else log.error(`worker: ${job.task_identifier} failed for good (attempt ${job.attempts} of ${job.max_attempts}): ${reason}`, { ...fields, stack: error instanceof Error ? error.stack : undefined });
    } else if (level === 'error') log.error(`worker: ${message}`, { ...rest, ...(error !== undefined && { error: error instanceof Error ? error.message : String(error) }) });
    else if (level === 'warning') log.warn(`worker: ${message}`, meta as Record<string, unknown>);
    else log.debug(`worker: ${message}`);
  });
}

export async function migrateQueue(pool: pg.Pool, log: Logger): Promise<void> {
  await runMigrations({ pgPool: pool, logger: workerLogger(log) });
}

const HEARTBEAT_MS = 10_000;
/** A worker silent this long is presumed dead; jobs it held are released to run again. */
const PRESUMED_DEAD_SECONDS = 45;

/**
 * graphile-worker keeps a crashed worker's jobs locked for four hours. Each of our worker
 * processes records a heartbeat under the id graphile-worker writes into `locked_by` (0.18
 * locks with the worker *pool* id, not the ids of the workers inside it), and releases the
 * locks of pools whose heartbeat stopped, so a step killed mid-way runs again within about
 * a minute while a slow step of a live pool is left alone however long it takes.
 */
async function recoverCrashedWorkers(pool: pg.Pool, release: (ids: string[]) => Promise<void>): Promise<void> {
  const { rows } = await pool.query<{ locked_by: string }>(
    `SELECT DISTINCT j.locked_by FROM graphile_worker.jobs j
      WHERE j.locked_by IS NOT NULL AND j.locked_at < now() - make_interval(secs => $1)
        AND NOT EXISTS (SELECT 1 FROM worker_heartbeats h WHERE h.worker_id = j.locked_by AND h.seen_at > now() - make_interval(secs => $1))`,
    [PRESUMED_DEAD_SECONDS],
  );
  if (rows.length) await release(rows.map((r) => r.locked_by));
}

export interface WorkerHandle {
  stop(): Promise<void>;
}

export async function startWorker(services: Services, pool: pg.Pool): Promise<WorkerHandle> {
  const { taskList, crontab } = await loadTasks(services);
  const events = new EventEmitter() as WorkerEvents;
  const ids = new Set<string>();
  events.on('pool:create', ({ workerPool }) => ids.add(workerPool.id));
  const utils = await makeWorkerUtils({ pgPool: pool, logger: workerLogger(services.log) });
  const beat = async () => {
    if (ids.size) await pool.query(`INSERT INTO worker_heartbeats (worker_id, seen_at) SELECT unnest($1::text[]), now() ON CONFLICT (worker_id) DO UPDATE SET seen_at = now()`, [[...ids]]);
    await pool.query(`DELETE FROM worker_heartbeats WHERE seen_at < now() - interval '1 day'`);
    await recoverCrashedWorkers(pool, (dead) => utils.forceUnlockWorkers(dead));
  };
  const concurrency = services.config.workerConcurrency;
  const runner: Runner = await run({
    pgPool: pool,
    taskList,
    crontab,
    concurrency,
    pollInterval: 2000,
    noHandleSignals: true,
    logger: workerLogger(services.log),
    events,
    // Jobs are fetched (and locked under the pool's id, which the heartbeat covers) a batch at a
    // time and completed in batches: a job then costs no round trip of its own to the queue.
    preset: { worker: { localQueue: { size: concurrency + 1 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
  await beat().catch((err) => services.log.warn('worker heartbeat failed', { message: (err as Error).message }));
  const timer = setInterval(() => beat().catch((err) => services.log.warn('worker heartbeat failed', { message: (err as Error).message })), HEARTBEAT_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await runner.stop();
      stopTranscriber();
      await pool.query(`DELETE FROM worker_heartbeats WHERE worker_id = ANY($1::text[])`, [[...ids]]).catch(() => {});
      await utils.release();
    },
  };
}
