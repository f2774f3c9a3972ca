import { z } from 'zod';
import type { Services } from '../../core/context.ts';
import { parseOrThrow } from '../../core/invoke.ts';
import { addEntry, ensureAccount } from './ledger.ts';
import { grantCredits } from './grant.ts';
import { completeCheckout, expireCheckout } from './purchases.ts';
import { MAX_GRANT_CREDITS } from './rules.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';

export type Outcome = 'applied' | 'ignored' | 'duplicate';

const Envelope = z.object({ type: z.string().min(1).max(100), data: z.record(z.string(), z.unknown()).default({}) });
const OrgRef = z.string().min(1).max(64).describe('Organization id or handle');

interface EventHandler<S extends z.ZodType> {
  schema: S;
  apply(sql: Sql, data: z.output<S>, webhookId: string): Promise<Outcome>;
}
const on = <S extends z.ZodType>(schema: S, apply: EventHandler<S>['apply']): EventHandler<z.ZodType> => ({ schema, apply }) as EventHandler<z.ZodType>;

async function orgId(sql: Sql, ref: string): Promise<string | null> {
  return (await sql.query<{ id: string }>(`SELECT id FROM organizations WHERE id = $1 OR handle = $1`, [ref])).rows[0]?.id ?? null;
}

/** Inbound billing events (payload schemas are ours to choose; docs/decisions.md lists them). */
const handlers: Record<string, EventHandler<z.ZodType>> = {
  'checkout.completed': on(z.object({ session_id: z.string().min(1).max(64) }), async (sql, d) =>
    (await completeCheckout(sql, d.session_id)) ? 'applied' : 'ignored',
  ),
  'checkout.expired': on(z.object({ session_id: z.string().min(1).max(64) }), async (sql, d) =>
    (await expireCheckout(sql, d.session_id)) ? 'applied' : 'ignored',
  ),
  'credits.granted': on(
    z.object({ organization: OrgRef, credits: z.number().int().min(1).max(MAX_GRANT_CREDITS), reason: z.string().max(500).optional() }),
    async (sql, d, webhookId) => {
      const id = await orgId(sql, d.organization);
      if (!id) return 'ignored';
      await grantCredits(sql, { organizationId: id, credits: d.credits, description: d.reason ?? 'Credits granted by the billing provider', idempotencyKey: `webhook:${webhookId}`, createdBy: null });
      return 'applied';
    },
  ),
  'payment.failed': on(z.object({ organization: OrgRef, reason: z.string().max(500).optional() }), async (sql, d, webhookId) => {
    const id = await orgId(sql, d.organization);
    if (!id) return 'ignored';
    await ensureAccount(sql, id);
    await sql.query(`UPDATE billing_accounts SET payment_status = 'past_due', updated_at = now() WHERE organization_id = $1`, [id]);
    await addEntry(sql, { organizationId: id, kind: 'failure', amount: 0, description: `Payment failed${d.reason ? `: ${d.reason}` : ''}`, idempotencyKey: `webhook:${webhookId}` });
    return 'applied';
  }),
  'payment.succeeded': on(z.object({ organization: OrgRef }), async (sql, d) => {
    const id = await orgId(sql, d.organization);
    if (!id) return 'ignored';
    await ensureAccount(sql, id);
    await sql.query(`UPDATE billing_accounts SET payment_status = 'active', updated_at = now() WHERE organization_id = $1`, [id]);
    return 'applied';
  }),
};

/**
 * Applies one verified webhook once: its id is recorded in the same transaction as its effect,
 * so a redelivery changes nothing. A malformed payload is a 400 and is not recorded.
 */
export async function handleBillingWebhook(services: Services, webhookId: string, payload: unknown): Promise<{ type: string; outcome: Outcome }> {
  const event = parseOrThrow(Envelope, payload);
  const handler = handlers[event.type];
  const data = handler ? parseOrThrow(handler.schema, event.data) : null;
  return inTransaction(services.db.pool, async (sql) => {
    const fresh = (await sql.query(`INSERT INTO webhook_deliveries (provider, delivery_id, event, outcome) VALUES ('billing', $1, $2, 'pending') ON CONFLICT DO NOTHING RETURNING delivery_id`, [webhookId, event.type])).rows;
    if (!fresh.length) return { type: event.type, outcome: 'duplicate' as const };
    const outcome = handler ? await handler.apply(sql, data, webhookId) : 'ignored';
    await sql.query(`UPDATE webhook_deliveries SET outcome = $2 WHERE provider = 'billing' AND delivery_id = $1`, [webhookId, outcome]);
    return { type: event.type, outcome };
  });
}
