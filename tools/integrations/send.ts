import { z } from 'zod';
import type { Services } from '../../core/context.ts';
import { AppError, DomainError, NotFoundError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { addJob } from '../../core/queue.ts';
import { iso } from '../common.ts';
import { issueDraft } from './issue-draft.ts';
import { tasks } from '../work/record.ts';
import { createIssue, type CreatedIssue, type Provider } from './providers.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import { projects, type ProjectRow } from '../projects/record.ts';
import { findOrganization } from './organization.ts';
import { codehostApp, trackerApp } from './apps.ts';

export const Delivery = z.object({
  provider: z.enum(['github', 'linear']),
  status: z.enum(['pending', 'sending', 'retrying', 'sent', 'failed']).describe('sending: a send is under way; retrying: the provider was busy and a background job keeps trying with backoff'),
  target: z.string().nullable().describe('Repository (owner/name) or tracker team key'),
  issue_id: z.string().nullable(),
  issue_number: z.number().int().nullable(),
  issue_url: z.string().nullable(),
  issue_state: z.string().nullable(),
  placement: z.enum(['triage', 'backlog_fallback']).nullable(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  last_synced_at: z.string().nullable(),
});
export type DeliveryRecord = z.input<typeof Delivery>;

export const deliveryRecord = (r: Record<string, any>): DeliveryRecord => ({
  provider: r.provider,
  status: r.status,
  target: r.target,
  issue_id: r.issue_id,
  issue_number: r.issue_number,
  issue_url: r.issue_url,
  issue_state: r.issue_state,
  placement: r.placement,
  attempts: r.attempts,
  last_error: r.last_error,
  last_synced_at: iso(r.last_synced_at),
});

/** How many times a busy provider is tried before the delivery fails for good. */
export const MAX_ATTEMPTS = 8;
/** A send that has not reported back in this long is presumed dead and may be claimed again. */
const SENDING_STALE = '2 minutes';

/**
 * Refuses, before anything is written, a send the project is not set up for: first what the
 * server lacks (503 naming its settings, which no project setting can make up for), then the
 * project's own connection, said as the workspace's Settings page offers it.
 */
export async function checkConfigured(services: Services, provider: Provider, project: ProjectRow): Promise<void> {
  if (provider === 'github') {
    codehostApp(services);
    if (!project.codehost_installation_id || !project.codehost_repo_url) {
      throw new ValidationError('The project has no code-host repository to send to', {
        code: 'codehost_not_configured',
        action: "Connect the code host and choose a repository under Integrations in the project's settings (API: P/codehost-app/select-installation, then P/codehost-app/select-repo)",
      });
    }
    return;
  }
  trackerApp(services);
  const { rows } = await services.db.pool.query(`SELECT 1 FROM tracker_connections WHERE organization_id = $1`, [project.organization_id]);
  if (!rows.length) {
    throw new ValidationError('The tracker is not connected for this organization', { code: 'tracker_not_connected', action: "Connect the tracker under Integrations in the project's settings (API: GET /api/orgs/:orgHandle/tracker/connect)" });
  }
  if (!project.tracker_team_id) throw new ValidationError('The project has no tracker team to send to', { code: 'tracker_not_configured', action: "Choose a team under Integrations in the project's settings (API: POST P/tracker/select-team)" });
}

/**
 * Sends a work item to a provider once. The delivery is claimed (`sending`) in a short
 * transaction, the provider is called holding no database lock, and the outcome is recorded
 * in another: concurrent and repeated sends make one issue. A busy provider (429, 5xx,
 * unreachable) leaves the delivery `retrying` and a job tries again with backoff; other
 * refusals fail it. Row locks are always taken delivery first, then work item, as webhooks do.
 */
export async function sendTask(services: Services, taskId: string, provider: Provider, opts: { fromJob?: boolean; lastAttempt?: boolean } = {}): Promise<DeliveryRecord> {
  const { db } = services;
  const q = async (sql: Sql, text: string, values: unknown[]) => (await sql.query<Record<string, any>>(text, values)).rows;

  const [task] = await tasks.select(db.pool, 'id = $1', [taskId]);
  if (!task) throw new NotFoundError('Work item not found');
  const [project] = await projects.select(db.pool, 'id = $1', [task.project_id]);
  const org = (await findOrganization(db.pool, project.organization_id))!;
  try {
    await checkConfigured(services, provider, project);
  } catch (err) {
    if (!opts.fromJob) throw err;
    // The project changed while a retry waited: that delivery cannot succeed any more.
    const { rows } = await db.pool.query(`UPDATE deliveries SET status = 'failed', last_error = $3, updated_at = now() WHERE task_id = $1 AND provider = $2 RETURNING *`, [task.id, provider, (err as Error).message]);
    return deliveryRecord(rows[0]);
  }

  const claimed = await inTransaction(db.pool, async (sql) => {
    await q(sql, `INSERT INTO deliveries (id, project_id, task_id, provider, status) VALUES ($1, $2, $3, $4, 'pending') ON CONFLICT (task_id, provider) DO NOTHING`, [newId('dlv'), project.id, task.id, provider]);
    const [delivery] = await q(sql, `SELECT *, updated_at > now() - interval '${SENDING_STALE}' AS fresh FROM deliveries WHERE task_id = $1 AND provider = $2 FOR UPDATE`, [task.id, provider]);
    if (delivery.status === 'sent' || (delivery.status === 'sending' && delivery.fresh)) return { delivery, go: false };
    const [sending] = await q(sql, `UPDATE deliveries SET status = 'sending', updated_at = now() WHERE id = $1 RETURNING *`, [delivery.id]);
    return { delivery: sending, go: true };
  });
  if (!claimed.go) return deliveryRecord(claimed.delivery);

  let created: CreatedIssue | null = null;
  let failure: AppError | null = null;
  try {
    created = await createIssue(services, provider, project, await issueDraft(services, task, `/api/orgs/${org.handle}/projects/${project.handle}`));
  } catch (err) {
    failure = err instanceof AppError ? err : new AppError(502, 'The provider could not be reached', { retryable: true });
  }

  const retry = !!failure && failure.retryable === true && !opts.lastAttempt;
  const row = await inTransaction(db.pool, async (sql) => {
    if (!created) {
      const [after] = await q(
        sql,
        `UPDATE deliveries SET status = $2, attempts = attempts + 1, last_error = $3, updated_at = now() WHERE id = $1 RETURNING *`,
        [claimed.delivery.id, retry ? 'retrying' : 'failed', failure!.message],
      );
      if (retry && !opts.fromJob) {
        await addJob(sql, 'delivery_send', { taskId: task.id, provider }, { jobKey: `delivery:${claimed.delivery.id}`, maxAttempts: MAX_ATTEMPTS, runAt: new Date(Date.now() + 2000) });
      }
      return after;
    }
    const [after] = await q(
      sql,
      `UPDATE deliveries SET status = 'sent', attempts = attempts + 1, last_error = NULL, issue_id = $2, issue_number = $3, issue_url = $4, issue_state = $5,
              target = $6, placement = $7, last_synced_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [claimed.delivery.id, created.issue_id, created.issue_number, created.issue_url, created.issue_state, created.target, created.placement],
    );
    await q(sql, `UPDATE tasks SET tracker_issue_id = $2, tracker_issue_url = $3, tracker_issue_status = $4, updated_at = now() WHERE id = $1`, [task.id, created.issue_id, created.issue_url, created.issue_state]);
    if (task.finding_id) {
      await q(sql, `UPDATE findings SET delivery_state = 'awaiting_product_triage', provider_placement = $2, updated_at = now() WHERE id = $1`, [task.finding_id, created.placement]);
    }
    return after;
  });
  if (failure && !retry && opts.fromJob) services.log.error('delivery failed for good', { taskId: task.id, provider, attempts: row.attempts, error: failure.message });
  if (failure && !retry && !opts.fromJob) throw failure;
  if (opts.fromJob && row.status === 'retrying') throw new Error(`provider busy: ${row.last_error}`);
  return deliveryRecord(row);
}

/** A work item may be sent once it is delivery work: review packets must be promoted first. */
export function checkSendable(task: { review_packet: boolean; promoted_at: Date | null }): void {
  if (task.review_packet && !task.promoted_at) {
    throw new DomainError('This work item is an evidence review packet, not delivery work yet', { code: 'task_not_promoted', action: 'Promote it after reviewing the evidence, then send it' });
  }
}
