import type { Services } from '../../core/context.ts';
import { ValidationError } from '../../core/errors.ts';
import { trackerClient, trackerQuery } from './apps.ts';

export interface Connection {
  organization_id: string;
  workspace_id: string | null;
  workspace_name: string | null;
  webhook_id: string | null;
  webhook_status: 'pending' | 'registered' | 'failed';
  webhook_error: string | null;
  connected_at: Date;
  token: string;
}

export async function connectionOf(services: Services, orgId: string): Promise<Connection | null> {
  const { rows } = await services.db.pool.query(`SELECT * FROM tracker_connections WHERE organization_id = $1`, [orgId]);
  const row = rows[0];
  if (!row) return null;
  return { ...row, token: services.secrets.open({ keyId: row.token_key_id, ciphertext: row.token_ciphertext }, `tracker:${orgId}`) };
}

export async function requireConnection(services: Services, orgId: string): Promise<Connection> {
  const c = await connectionOf(services, orgId);
  if (!c) throw new ValidationError('The tracker is not connected for this organization', { code: 'tracker_not_connected', action: 'GET /api/orgs/:orgHandle/tracker/connect to connect it' });
  return c;
}

/**
 * Registers our webhook with the tracker for Issue and Comment events (signed with
 * TRACKER_WEBHOOK_SECRET); the outcome is kept on the connection for webhook health.
 */
export async function registerWebhook(services: Services, c: Connection): Promise<Connection> {
  let status: Connection['webhook_status'] = 'registered';
  let error: string | null = null;
  let id: string | null = c.webhook_id;
  try {
    const data = await trackerQuery<{ webhookCreate: { success: boolean; webhook: { id: string } | null } }>(
      trackerClient(services, c.token),
      `mutation VerbatimWebhookCreate($input: WebhookCreateInput!) { webhookCreate(input: $input) { success webhook { id } } }`,
      { input: { url: `${services.baseUrl()}/api/webhooks/tracker`, label: 'Verbatim', resourceTypes: ['Issue', 'Comment'], allPublicTeams: true, ...(services.config.integrations.trackerWebhookSecret ? { secret: services.config.integrations.trackerWebhookSecret } : {}) } },
    );
    if (!data.webhookCreate.success || !data.webhookCreate.webhook) throw new Error('the tracker refused the webhook');
    id = data.webhookCreate.webhook.id;
  } catch (err) {
    status = 'failed';
    error = err instanceof Error ? err.message : String(err);
  }
  await services.db.pool.query(`UPDATE tracker_connections SET webhook_id = $2, webhook_status = $3, webhook_error = $4, updated_at = now() WHERE organization_id = $1`, [c.organization_id, id, status, error]);
  return { ...c, webhook_id: id, webhook_status: status, webhook_error: error };
}
