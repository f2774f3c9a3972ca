import express, { type Router } from 'express';
import { Webhook } from 'standardwebhooks';
import type { Services } from '../../core/context.ts';
import { AppError, UnavailableError, ValidationError } from '../../core/errors.ts';
import { handleBillingWebhook } from '../../tools/billing/webhook.ts';

const TOLERANCE_SECONDS = 5 * 60;

const unauthorized = (message: string, code: string) => new AppError(401, message, { code, retryable: false, action: 'Sign the raw body per Standard Webhooks with the configured BILLING_WEBHOOK_SECRET' });

/** One verifier per configured secret (rotation: any of them may sign). A malformed secret stops startup. */
function verifiers(secrets: string | null): Webhook[] {
  return (secrets ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((secret) => {
      try {
        return new Webhook(secret);
      } catch {
        throw new Error('BILLING_WEBHOOK_SECRET: every secret must look like whsec_<base64>');
      }
    });
}

/**
 * POST /api/webhooks/billing (SPEC 4.16): Standard Webhooks over the raw bytes. The body is
 * never parsed before the signature matches, so a re-serialised payload does not verify.
 */
export function billingWebhookRoutes(services: Services): Router {
  const router = express.Router();
  const keys = verifiers(services.config.billingWebhookSecret);
  router.post('/api/webhooks/billing', express.raw({ type: '*/*', limit: '1mb' }), async (req, res, next) => {
    try {
      if (!keys.length) {
        throw new UnavailableError('Billing webhooks are not configured on this server', { code: 'billing_webhook_unconfigured', action: 'Set BILLING_WEBHOOK_SECRET to the provider\'s whsec_ signing secret' });
      }
      const headers = { 'webhook-id': req.get('webhook-id') ?? '', 'webhook-timestamp': req.get('webhook-timestamp') ?? '', 'webhook-signature': req.get('webhook-signature') ?? '' };
      if (!headers['webhook-id'] || headers['webhook-id'].length > 255 || !headers['webhook-signature']) {
        throw unauthorized('Missing webhook-id or webhook-signature header', 'webhook_signature_missing');
      }
      const timestamp = /^\d{1,12}$/.test(headers['webhook-timestamp']) ? Number(headers['webhook-timestamp']) : NaN;
      if (!(Math.abs(Date.now() / 1000 - timestamp) <= TOLERANCE_SECONDS)) {
        throw unauthorized('webhook-timestamp is missing or more than five minutes from now', 'webhook_timestamp_out_of_range');
      }
      const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const verified = keys.some((key) => {
        try {
          key.verify(body, headers, { jsonParse: false });
          return true;
        } catch {
          return false;
        }
      });
      if (!verified) throw unauthorized('The webhook signature does not match', 'webhook_signature_invalid');
      let payload: unknown;
      try {
        payload = JSON.parse(body.toString('utf8'));
      } catch {
        throw new ValidationError('The webhook body is not JSON', { code: 'malformed_json' });
      }
      const result = await handleBillingWebhook(services, headers['webhook-id'], payload);
      res.json({ received: true, ...result });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
