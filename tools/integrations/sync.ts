import type { Sql } from '../../core/tx.ts';
import type { Category, Provider } from './providers.ts';

const DELIVERY_STATE: Record<Category, string> = {
  triage: 'awaiting_product_triage',
  accepted: 'accepted',
  in_progress: 'in_progress',
  completed: 'completed',
  declined: 'declined',
  duplicate: 'duplicate',
};
const TASK_STATUS: Partial<Record<Category, string>> = { accepted: 'ready', in_progress: 'in_progress', completed: 'done', declined: 'wont_fix', duplicate: 'wont_fix' };

export interface SyncOutcome {
  tasks: number;
  resolved: number;
  reverted: number;
}

/**
 * Brings what a provider says of an issue onto everything sent as that issue: the delivery,
 * the work item (status and tracker fields), its finding's delivery_state, and its evidence.
 * An issue that completes resolves the item's evidence that is not resolved yet; one that
 * leaves completion (reopened) takes back exactly the resolutions it made. `sql` is the open
 * transaction's client: the delivery rows are locked first, then each work item.
 */
export async function applyProviderState(provider: Provider, issueId: string, state: string, category: Category, sql: Sql): Promise<SyncOutcome> {
  const q = (text: string, values: unknown[]) => sql.query(text, values).then((r) => ({ rows: r.rows as any[], count: r.rowCount ?? 0 }));
  const { rows: deliveries } = await q(`UPDATE deliveries SET issue_state = $3, last_synced_at = now(), updated_at = now() WHERE provider = $1 AND issue_id = $2 RETURNING task_id`, [provider, issueId, state]);
  const outcome: SyncOutcome = { tasks: 0, resolved: 0, reverted: 0 };
  for (const { task_id } of deliveries) {
    const { rows: [task] } = await q(`SELECT id, status, finding_id FROM tasks WHERE id = $1 FOR UPDATE`, [task_id]);
    if (!task) continue;
    outcome.tasks++;
    let status: string = TASK_STATUS[category] ?? task.status;
    if (category === 'completed') {
      outcome.resolved += (await q(
        `UPDATE signal_task_links SET resolved_at = now(), resolved_by_provider = $2, resolved_by_provider_issue_id = $3, resolution_reason = $4 WHERE task_id = $1 AND resolved_at IS NULL`,
        [task.id, provider, issueId, provider === 'github' ? 'issue_closed' : 'issue_completed'],
      )).count;
    } else {
      outcome.reverted += (await q(
        `UPDATE signal_task_links SET resolved_at = NULL, resolved_by_provider = NULL, resolved_by_provider_issue_id = NULL, resolution_reason = NULL WHERE task_id = $1 AND resolved_by_provider = $2 AND resolved_by_provider_issue_id = $3`,
        [task.id, provider, issueId],
      )).count;
      if (task.status === 'done' && !TASK_STATUS[category]) status = 'ready';
    }
    await q(
      `UPDATE tasks SET tracker_issue_status = $2, status = $3, completed_at = CASE WHEN $3 = 'done' THEN coalesce(completed_at, now()) ELSE NULL END, updated_at = now() WHERE id = $1`,
      [task.id, state, status],
    );
    if (task.finding_id) await q(`UPDATE findings SET delivery_state = $2, updated_at = now() WHERE id = $1`, [task.finding_id, DELIVERY_STATE[category]]);
  }
  return outcome;
}
