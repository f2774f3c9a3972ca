import express, { type Router } from 'express';
import { LinearWebhookClient } from '@linear/sdk/webhooks';
import type { Services } from '../../core/context.ts';
import { AuthenticationError, UnavailableError } from '../../core/errors.ts';
import { linearCategory } from '../../tools/integrations/providers.ts';
import { applyProviderState } from '../../tools/integrations/sync.ts';
import { firstDelivery } from './deliveries.ts';
import { refuseUnsafeText } from '../../core/input-guard.ts';
import { inTransaction } from '../../core/tx.ts';

interface TrackerEvent {
  type?: string;
  action?: string;
  organizationId?: string;
  data?: { id?: string; state?: { name?: string; type?: string } };
}

/**
 * `POST /api/webhooks/tracker`: Linear deliveries, verified over the raw bytes by the
 * tracker's own client (HMAC-SHA256 in Linear-Signature, constant-time) with a signed
 * `webhookTimestamp` no more than 60 seconds away. An issue entering a completed state
 * resolves the evidence of the work items sent as it; leaving it takes that back.
 */
export function trackerWebhook(services: Services): Router {
  const router = express.Router();
  router.post('/api/webhooks/tracker', express.raw({ type: () => true, limit: '5mb' }), async (req, res, next) => {
    try {
      const secret = services.config.integrations.trackerWebhookSecret;
      if (!secret) throw new UnavailableError('Tracker webhooks are not configured', { code: 'tracker_webhook_unconfigured', retryable: false, action: 'Set TRACKER_WEBHOOK_SECRET to the webhook\'s signing secret' });
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let payload: TrackerEvent;
      try {
        payload = new LinearWebhookClient(secret).parseData(raw, req.get('linear-signature') ?? '') as TrackerEvent;
      } catch (err) {
        const stale = err instanceof Error && /timestamp/i.test(err.message);
        throw new AuthenticationError(stale ? 'The delivery\'s webhookTimestamp is missing or more than 60 seconds away' : 'The delivery is not signed with the tracker webhook secret', { code: stale ? 'stale_delivery' : 'invalid_signature' });
      }
      // Only the fields we store or look up: a description with odd text must not lose the state change.
      refuseUnsafeText({ type: payload.type, action: payload.action, organizationId: payload.organizationId, data: { id: payload.data?.id, state: payload.data?.state } });
      const event = `${payload.type ?? 'unknown'}.${payload.action ?? 'unknown'}`;
      const { rows } = await services.db.pool.query<{ organization_id: string }>(`SELECT organization_id FROM tracker_connections WHERE workspace_id = $1`, [payload.organizationId ?? '']);
      const result = await inTransaction(services.db.pool, async (sql) => {
        if (!(await firstDelivery('tracker', req.get('linear-delivery'), event, rows[0]?.organization_id ?? null, sql))) return { duplicate: true };
        const state = payload.data?.state;
        if (payload.type !== 'Issue' || !payload.data?.id || !state?.type) return { ignored: true };
        return applyProviderState('linear', payload.data.id, state.name ?? state.type, linearCategory(state.type, state.name ?? ''), sql);
      });
      res.json({ received: true, event, ...result });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
