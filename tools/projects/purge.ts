import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Services } from '../../core/context.ts';
import { ValidationError } from '../../core/errors.ts';
import { deletes } from '../common.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import { TASK_FOR_STEP } from '../interviews/pipeline.ts';

const IN_PROJECT_INTERVIEWS = `interview_id IN (SELECT id FROM interviews WHERE project_id = $1)`;

/** Research data, children before parents so every deleted row is counted (none goes by cascade). */
const COUNTED_DELETES = [
  `DELETE FROM finding_evidence WHERE finding_id IN (SELECT id FROM findings WHERE project_id = $1) OR signal_id IN (SELECT id FROM signals WHERE project_id = $1)`,
  `DELETE FROM signal_task_links WHERE task_id IN (SELECT id FROM tasks WHERE project_id = $1) OR signal_id IN (SELECT id FROM signals WHERE project_id = $1)`,
  `DELETE FROM recurrence_candidates WHERE project_id = $1`,
  `DELETE FROM activity WHERE project_id = $1`,
  `DELETE FROM signals WHERE project_id = $1`,
  `DELETE FROM findings WHERE project_id = $1`,
  `DELETE FROM deliveries WHERE project_id = $1`,
  `DELETE FROM tasks WHERE project_id = $1`,
  `DELETE FROM transcript_segments WHERE ${IN_PROJECT_INTERVIEWS}`,
  `DELETE FROM interview_events WHERE ${IN_PROJECT_INTERVIEWS}`,
  `DELETE FROM interview_messages WHERE ${IN_PROJECT_INTERVIEWS}`,
  `DELETE FROM recording_invitations WHERE project_id = $1`,
  `DELETE FROM intake_responses WHERE intake_id IN (SELECT id FROM intakes WHERE project_id = $1)`,
];

/** Rows that point at stored objects: deleted with RETURNING so exactly their objects go after commit. */
const KEYED_DELETES = [
  `DELETE FROM interview_artifacts WHERE ${IN_PROJECT_INTERVIEWS} RETURNING storage_key, NULL AS upload_id`,
  `DELETE FROM media_chunks WHERE ${IN_PROJECT_INTERVIEWS} RETURNING storage_key, NULL AS upload_id`,
  `DELETE FROM screen_upload_sessions WHERE ${IN_PROJECT_INTERVIEWS} RETURNING storage_key, NULL AS upload_id`,
  `DELETE FROM media_uploads WHERE project_id = $1 RETURNING storage_key, CASE WHEN status = 'open' THEN store_upload_id END AS upload_id`,
];

interface Stored {
  storage_key: string | null;
  upload_id: string | null;
}

async function purgeRows(projectId: string, sql: Sql) {
  const bind = [projectId];
  // One purge of a project at a time.
  await sql.query(`SELECT id FROM projects WHERE id = $1 FOR UPDATE`, bind);
  let rows = 0;
  for (const text of COUNTED_DELETES) rows += (await sql.query(text, bind)).rowCount ?? 0;
  const stored: Stored[] = [];
  for (const text of KEYED_DELETES) stored.push(...(await sql.query<Stored>(text, bind)).rows);
  const interviews = (await sql.query<{ id: string }>(`DELETE FROM interviews WHERE project_id = $1 RETURNING id`, bind)).rows;
  await sql.query(`UPDATE intakes SET complete_count = 0, qualified_count = 0, disqualified_count = 0, updated_at = now() WHERE project_id = $1`, bind);
  // Queued processing of the deleted interviews goes too (a running step finds its interview gone).
  const jobKeys = interviews.flatMap(({ id }) => [...Object.keys(TASK_FOR_STEP).map((step) => `interview:${id}:${step}`), `conductor:${id}:finalize`]);
  if (jobKeys.length) await sql.query(`SELECT graphile_worker.remove_job(k) FROM unnest($1::text[]) AS k`, [jobKeys]);
  return { rows: rows + stored.length + interviews.length, stored };
}

/** After commit: every object of the deleted rows, and anything left under the project's research folders. */
async function purgeObjects(services: Services, projectId: string, stored: Stored[]): Promise<{ objects: number; complete: boolean }> {
  const { storage, log } = services;
  let objects = 0;
  let complete = true;
  const attempt = async (what: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      complete = false;
      log.warn('purge: a stored object could not be deleted', { projectId, what, message: (err as Error).message });
    }
  };
  for (const s of stored.filter((s) => s.upload_id)) await attempt(`upload ${s.upload_id}`, () => storage.abortMultipart(s.storage_key!, s.upload_id!));
  for (const key of new Set(stored.map((s) => s.storage_key).filter((k): k is string => Boolean(k)))) {
    await attempt(key, async () => {
      if (!(await storage.head(key))) return;
      await storage.delete(key);
      objects++;
    });
  }
  for (const prefix of ['interviews', 'uploads']) {
    await attempt(prefix, async () => {
      objects += await storage.deletePrefix(`projects/${projectId}/${prefix}`);
    });
  }
  return { objects, complete };
}

export const purgeProject = capability({
  name: 'projects.purge',
  title: 'Purge a project\'s research data',
  description:
    'Deletes all research data of a project — interviews with transcripts, events, messages and every stored recording and artifact, ' +
    'evidence, findings, work items, intake responses, recording invitations and the activity log — and keeps the project itself, its ' +
    'members, settings, studies and intake questionnaires. Owners only. confirm must be the project handle. Cannot be undone.',
  input: z.strictObject({ confirm: z.string().max(100).describe('The project handle, to confirm') }),
  output: z.object({ success: z.boolean().describe('False when some stored objects could not be deleted (the rows are gone)'), dbRowsDeleted: z.number().int(), objectsDeleted: z.number().int() }),
  annotations: deletes,
  scope: 'write',
  access: 'project',
  roles: ['owner'],
  rest: { method: 'POST', path: 'P/purge' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    if (input.confirm !== project.handle) {
      throw new ValidationError('confirm does not match the project handle: nothing was deleted', { code: 'confirmation_mismatch', action: `Send {"confirm": "${project.handle}"} to purge this project's research data` });
    }
    const { rows, stored } = await inTransaction(ctx.services.db.pool, (sql) => purgeRows(project.id, sql));
    const { objects, complete } = await purgeObjects(ctx.services, project.id, stored);
    ctx.log.info('project purged', { projectId: project.id, rows, objects });
    return { success: complete, dbRowsDeleted: rows, objectsDeleted: objects };
  },
});
