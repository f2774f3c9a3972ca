import type { Sql } from '../../core/tx.ts';

/**
 * Remembers a provider's delivery id in the transaction that applies its effects: true the
 * first time, false for a redelivery (which must then change nothing). Deliveries without an
 * id are always applied; their effects are idempotent anyway.
 */
export async function firstDelivery(provider: string, deliveryId: string | undefined, event: string, organizationId: string | null, sql: Sql): Promise<boolean> {
  if (!deliveryId) return true;
  const { rows } = await sql.query(
    `INSERT INTO webhook_deliveries (provider, delivery_id, event, organization_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING delivery_id`,
    [provider, deliveryId.slice(0, 200), event, organizationId],
  );
  return rows.length > 0;
}
