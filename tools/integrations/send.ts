import { z } from 'zod';
import type { Services } from '../../core/context.ts';
import { AppError, DomainError, NotFoundError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { addJob } from '../../core/queue.ts';
import { iso } from '../common.ts';
import { issueDraft } from './issue-draft.ts';
import { createIssue, type CreatedIssue, type Provider } from './providers.ts';

export const Delivery = z.object({
  provider: z.enum(['github', 'linear']),
  status: z.enum(['pending', 'retrying', 'sent', 'failed']).describe('retrying: the provider was busy; a background job keeps trying with backoff'),
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

/**
 * Sends a work item to a provider once. The delivery row is locked for the whole attempt, so
 * concurrent and repeated sends make one issue. A busy provider (429, 5xx, unreachable) leaves
 * the delivery `retrying` and a job tries again with backoff; other refusals fail it. Returns
 * the delivery as it stands, or throws for a refusal the caller must hear about.
 */
export async function sendTask(services: Services, taskId: string, provider: Provider, opts: { fromJob?: boolean; lastAttempt?: boolean } = {}): Promise<DeliveryRecord> {
  const { db, models } = services;
  let refusal: AppError | null = null;
  const row = await db.sequelize.transaction(async (transaction) => {
    const q = (sql: string, bind: unknown[]) => db.sequelize.query(sql, { bind, transaction }).then(([rows]) => rows as Record<string, any>[]);
    const task = await models.Task.findByPk(taskId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!task) throw new NotFoundError('Work item not found');
    const project = (await models.Project.findByPk(task.project_id, { transaction }))!;
    const org = (await models.Organization.findByPk(project.organization_id, { transaction }))!;
    await q(`INSERT INTO deliveries (id, project_id, task_id, provider, status) VALUES ($1, $2, $3, $4, 'pending') ON CONFLICT (task_id, provider) DO NOTHING`, [newId('dlv'), project.id, task.id, provider]);
    const [delivery] = await q(`SELECT * FROM deliveries WHERE task_id = $1 AND provider = $2 FOR UPDATE`, [task.id, provider]);
    if (delivery.status === 'sent') return delivery;
    let created: CreatedIssue;
    try {
      created = await createIssue(services, provider, project, await issueDraft(services, task, `/api/orgs/${org.handle}/projects/${project.handle}`));
    } catch (err) {
      // Our own refusals (not configured, not connected) write nothing.
      if (!(err instanceof AppError) || err.status < 500) throw err;
      const retry = err.retryable === true && !opts.lastAttempt;
      const [after] = await q(
        `UPDATE deliveries SET status = $2, attempts = attempts + 1, last_error = $3, updated_at = now() WHERE id = $1 RETURNING *`,
        [delivery.id, retry ? 'retrying' : 'failed', err.message],
      );
      if (retry && !opts.fromJob) {
        await addJob(db.sequelize, transaction, 'delivery_send', { taskId: task.id, provider }, { jobKey: `delivery:${delivery.id}`, maxAttempts: MAX_ATTEMPTS, runAt: new Date(Date.now() + 2000) });
      }
      if (!retry && !opts.fromJob) refusal = err;
      return after;
    }
    const [after] = await q(
      `UPDATE deliveries SET status = 'sent', attempts = attempts + 1, last_error = NULL, issue_id = $2, issue_number = $3, issue_url = $4, issue_state = $5,
              target = $6, placement = $7, last_synced_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [delivery.id, created.issue_id, created.issue_number, created.issue_url, created.issue_state, created.target, created.placement],
    );
    await task.update({ tracker_issue_id: created.issue_id, tracker_issue_url: created.issue_url, tracker_issue_status: created.issue_state }, { transaction });
    if (task.finding_id) {
      await q(`UPDATE findings SET delivery_state = 'awaiting_product_triage', provider_placement = $2, updated_at = now() WHERE id = $1`, [task.finding_id, created.placement]);
    }
    return after;
  });
  if (refusal) throw refusal;
  if (opts.fromJob && row.status === 'retrying') throw new Error(`provider busy: ${row.last_error}`);
  return deliveryRecord(row);
}

/** A work item may be sent once it is delivery work: review packets must be promoted first. */
export function checkSendable(task: { review_packet: boolean; promoted_at: Date | null }): void {
  if (task.review_packet && !task.promoted_at) {
    throw new DomainError('This work item is an evidence review packet, not delivery work yet', { code: 'task_not_promoted', action: 'Promote it after reviewing the evidence, then send it' });
  }
}
