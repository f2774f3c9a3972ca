import type { TaskFactory } from '../runner.ts';
import { runExport, sweepExpiredExports } from '../../tools/exports/run.ts';

/** Hourly, without an export id: deletes the archives of expired exports. */
export const cron = '41 * * * *';

export const task: TaskFactory = (services) => async (payload, helpers) => {
  const { exportId } = (payload ?? {}) as { exportId?: string };
  if (!exportId) {
    const swept = await sweepExpiredExports(services);
    if (swept) services.log.info('expired data exports deleted', { count: swept });
    return;
  }
  await runExport(services, exportId, helpers.job.attempts >= helpers.job.max_attempts);
};
