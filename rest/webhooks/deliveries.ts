import type { Transaction } from 'sequelize';
import type { Services } from '../../core/context.ts';

/**
 * Remembers a provider's delivery id in the transaction that applies its effects: true the
 * first time, false for a redelivery (which must then change nothing). Deliveries without an
 * id are always applied; their effects are idempotent anyway.
 */
export async function firstDelivery(services: Services, provider: string, deliveryId: string | undefined, event: string, organizationId: string | null, transaction: Transaction): Promise<boolean> {
  if (!deliveryId) return true;
  const [rows] = await services.db.sequelize.query(
    `INSERT INTO webhook_deliveries (provider, delivery_id, event, organization_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING delivery_id`,
    { bind: [provider, deliveryId.slice(0, 200), event, organizationId], transaction },
  );
  return (rows as unknown[]).length > 0;
}
