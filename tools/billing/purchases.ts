import { addEntry, ensureAccount } from './ledger.ts';
import type { Sql } from '../../core/tx.ts';

type Session = { organization_id: string; credits: number; provider: string; created_by: string | null };

/**
 * Completes an open checkout: the purchase entry (once, key `purchase:<sessionId>`) and an
 * active payment status. Run inside a transaction. False when it was not open.
 */
export async function completeCheckout(sql: Sql, sessionId: string): Promise<boolean> {
  const [s] = (await sql.query<Session>(
    `UPDATE billing_checkout_sessions SET status = 'completed', completed_at = now(), updated_at = now()
      WHERE id = $1 AND status = 'open' RETURNING organization_id, credits, provider, created_by`,
    [sessionId],
  )).rows;
  if (!s) return false;
  await ensureAccount(sql, s.organization_id);
  await addEntry(sql, {
    organizationId: s.organization_id,
    kind: 'purchase',
    amount: s.credits,
    idempotencyKey: `purchase:${sessionId}`,
    description: `Bought ${s.credits} credits (checkout ${sessionId})`,
    createdBy: s.created_by,
  });
  await sql.query(`UPDATE billing_accounts SET payment_status = 'active', provider = $2, updated_at = now() WHERE organization_id = $1`, [s.organization_id, s.provider]);
  return true;
}

export async function expireCheckout(sql: Sql, sessionId: string): Promise<boolean> {
  const rows = (await sql.query(`UPDATE billing_checkout_sessions SET status = 'expired', updated_at = now() WHERE id = $1 AND status = 'open' RETURNING id`, [sessionId])).rows;
  return rows.length > 0;
}
