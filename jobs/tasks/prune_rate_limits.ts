import type { TaskFactory } from '../runner.ts';

/** Rate-limit windows older than an hour count for nothing; drop them. */
export const cron = '*/10 * * * *';

export const task: TaskFactory = (services) => async () => {
  await services.db.pool.query(`DELETE FROM rate_limit_hits WHERE window_start < now() - interval '1 hour'`);
};
