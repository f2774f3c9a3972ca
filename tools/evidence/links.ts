import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import type { SignalRow } from './rows.ts';
import { NotFoundError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { iso } from '../common.ts';
import { findTask } from '../work/record.ts';
import { actorOf, logActivities } from '../activity.ts';
import type { Sql } from '../../core/tx.ts';
import { signalsById } from './rows.ts';
import type { Links } from './case-file.ts';

export const MAX_BULK = 500;

/**
 * All the given cards, in the caller's project, or a 404 naming the ones that are not; `lock`
 * takes them FOR UPDATE in the caller's transaction.
 */
export async function signalsInProject(ctx: Ctx, ids: string[], sql: Sql = ctx.services.db.pool, lock = false): Promise<SignalRow[]> {
  if (ids.length > MAX_BULK) throw new ValidationError(`signal_ids: at most ${MAX_BULK} ids in one call`);
  const unique = [...new Set(ids)];
  const rows = await signalsById(sql, projectOf(ctx).project.id, unique, lock);
  if (rows.length !== unique.length) {
    const found = new Set(rows.map((r) => r.id));
    throw new NotFoundError(`Evidence cards not found in this project: ${unique.filter((i) => !found.has(i)).slice(0, 20).join(', ')}`, { code: 'signals_not_found' });
  }
  return rows;
}

/** Links cards to one work item (replacing earlier links), all or nothing, in the caller's transaction. */
export async function linkSignals(ctx: Ctx, ids: string[], taskId: string, sql: Sql): Promise<void> {
  const task = (await findTask(ctx, taskId, sql)).id;
  const rows = await signalsInProject(ctx, ids, sql);
  await sql.query(
    `INSERT INTO signal_task_links (id, signal_id, task_id, linked_by) SELECT u.id, u.signal_id, $3, $4 FROM unnest($1::text[], $2::text[]) AS u(id, signal_id)
     ON CONFLICT (signal_id) DO UPDATE SET task_id = EXCLUDED.task_id, linked_at = now(), linked_by = EXCLUDED.linked_by,
       resolved_at = NULL, resolved_by_provider = NULL, resolved_by_provider_issue_id = NULL, resolution_reason = NULL`,
    [rows.map(() => newId('lnk')), rows.map((s) => s.id), task, actorOf(ctx)],
  );
  await logActivities(ctx, 'signal', rows.map((s) => ({ id: s.id, data: { task_id: task } })), 'linked', sql);
}

/** What a card is linked to: its work item, the resolution, and recurrence candidates. */
export async function linksOf(ctx: Ctx, s: SignalRow): Promise<Links> {
  const pool = ctx.services.db.pool;
  const [link, candidates] = await Promise.all([
    pool.query(
      `SELECT l.*, t.title, t.status, t.tracker_issue_id, t.tracker_issue_url, t.tracker_issue_status
         FROM signal_task_links l JOIN tasks t ON t.id = l.task_id WHERE l.signal_id = $1`,
      [s.id],
    ),
    pool.query(
      `SELECT c.*, t.title AS task_title, t.status AS task_status FROM recurrence_candidates c
         LEFT JOIN tasks t ON t.id = c.related_task_id WHERE c.signal_id = $1 ORDER BY c.confidence DESC`,
      [s.id],
    ),
  ]);
  const l = link.rows[0];
  return {
    linked_task: l
      ? { id: l.task_id, title: l.title, status: l.status, tracker_issue_id: l.tracker_issue_id, tracker_issue_url: l.tracker_issue_url, tracker_issue_status: l.tracker_issue_status }
      : null,
    evidence_resolution: l
      ? {
          link_id: l.id,
          task_id: l.task_id,
          linked_at: iso(l.linked_at)!,
          resolved_at: iso(l.resolved_at),
          resolved_by_provider: l.resolved_by_provider,
          resolved_by_provider_issue_id: l.resolved_by_provider_issue_id,
          resolution_reason: l.resolution_reason,
        }
      : null,
    recurrence_candidates: candidates.rows.map((c) => ({
      id: c.id,
      related_task_id: c.related_task_id,
      related_resolved_signal_id: c.related_resolved_signal_id,
      confidence: c.confidence,
      reason: c.reason,
      status: c.status,
      created_at: iso(c.created_at)!,
      reviewed_at: iso(c.reviewed_at),
      related_task: c.task_title ? { id: c.related_task_id, title: c.task_title, status: c.task_status } : null,
    })),
  };
}
