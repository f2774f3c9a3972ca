import express, { type Router } from 'express';
import { verify } from '@octokit/webhooks-methods';
import type { Services } from '../../core/context.ts';
import { AuthenticationError, UnavailableError, ValidationError } from '../../core/errors.ts';
import { githubCategory } from '../../tools/integrations/providers.ts';
import { applyProviderState } from '../../tools/integrations/sync.ts';
import { firstDelivery } from './deliveries.ts';
import { refuseUnsafeText } from '../../core/input-guard.ts';
import { inTransaction } from '../../core/tx.ts';

interface IssuesEvent {
  action?: string;
  issue?: { id: number; state: string; state_reason?: string | null };
}
const SYNCED_ACTIONS = new Set(['closed', 'reopened']);

/**
 * `POST /api/webhooks/codehost`: GitHub deliveries, verified over the raw bytes with the
 * code host's own signature method (X-Hub-Signature-256, constant-time). A closed issue
 * resolves the evidence of the work items sent as it; a reopened one takes that back.
 */
export function codehostWebhook(services: Services): Router {
  const router = express.Router();
  router.post('/api/webhooks/codehost', express.raw({ type: () => true, limit: '5mb' }), async (req, res, next) => {
    try {
      const secret = services.config.integrations.codehostWebhookSecret;
      if (!secret) throw new UnavailableError('Code-host webhooks are not configured', { code: 'codehost_webhook_unconfigured', retryable: false, action: 'Set CODEHOST_WEBHOOK_SECRET to the app\'s webhook secret' });
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.get('x-hub-signature-256');
      // The library signs strings: the text must round-trip to exactly the bytes received.
      const text = raw.toString('utf8');
      if (!signature || !Buffer.from(text, 'utf8').equals(raw) || !(await verify(secret, text, signature).catch(() => false))) {
        throw new AuthenticationError('The delivery is not signed with the code-host webhook secret', { code: 'invalid_signature' });
      }
      const event = req.get('x-github-event') ?? 'unknown';
      let payload: IssuesEvent;
      try {
        payload = JSON.parse(text) as IssuesEvent;
      } catch {
        throw new ValidationError('The delivery body is not JSON');
      }
      // Only the fields we store or look up: an issue body with odd text must not lose the state change.
      refuseUnsafeText({ action: payload.action, issue: payload.issue && { id: payload.issue.id, state: payload.issue.state, state_reason: payload.issue.state_reason } });
      const result = await inTransaction(services.db.pool, async (sql) => {
        if (!(await firstDelivery('codehost', req.get('x-github-delivery'), event, null, sql))) return { duplicate: true };
        if (event !== 'issues' || !payload.issue || !SYNCED_ACTIONS.has(payload.action ?? '')) return { ignored: true };
        const { issue } = payload;
        return applyProviderState('github', String(issue.id), issue.state, githubCategory(issue.state, issue.state_reason ?? null), sql);
      });
      res.json({ received: true, event, ...result });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
