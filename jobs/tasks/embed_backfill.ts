import type { TaskFactory } from '../runner.ts';
import { detectRecurrence } from '../../tools/evidence/recurrence.ts';

/** Recurrence detection over all existing evidence, project by project. */
export const task: TaskFactory = (services) => async (payload) => {
  const { projectId } = payload as { projectId: string | null };
  const { rows } = await services.db.pool.query<{ id: string }>(`SELECT id FROM projects WHERE $1::text IS NULL OR id = $1`, [projectId]);
  let created = 0;
  for (const p of rows) created += await detectRecurrence(services.db.pool, p.id, 'all');
  services.log.info('embed backfill done', { projects: rows.length, candidates: created });
};
