import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type pg from 'pg';
import { run, runMigrations, Logger as WorkerLogger, type Runner, type Task, type TaskList } from 'graphile-worker';
import type { Logger } from '../core/logger.ts';
import type { Services } from '../core/context.ts';

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

/** graphile-worker logs through ours, quietly: completed jobs are not news. */
function workerLogger(log: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    if (level === 'error') log.error(`worker: ${message}`, meta as Record<string, unknown>);
    else if (level === 'warning') log.warn(`worker: ${message}`, meta as Record<string, unknown>);
    else log.debug(`worker: ${message}`);
  });
}

export async function migrateQueue(pool: pg.Pool, log: Logger): Promise<void> {
  await runMigrations({ pgPool: pool, logger: workerLogger(log) });
}

export async function startWorker(services: Services, pool: pg.Pool): Promise<Runner> {
  const { taskList, crontab } = await loadTasks(services);
  return run({
    pgPool: pool,
    taskList,
    crontab,
    concurrency: 2,
    pollInterval: 2000,
    noHandleSignals: true,
    logger: workerLogger(services.log),
  });
}
