import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { NotFoundError, UnavailableError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, readOnly, Timestamp, iso, isoRequired } from '../common.ts';
import { OrgParam, billingOrg, requireManager } from './account.ts';
import { paymentProvider } from './provider.ts';
import { completeCheckout, expireCheckout } from './purchases.ts';
import { CURRENCY, MAX_CHECKOUT_CREDITS, PRICE_PER_CREDIT_CENTS } from './rules.ts';
import { inTransaction } from '../../core/tx.ts';

const Status = z.enum(['open', 'completed', 'expired']);

export const startCheckout = capability({
  name: 'billing.checkout',
  title: 'Buy credits',
  description:
    'Starts a payment checkout for credits for your personal organization (or org=<handle>). Send the buyer to checkout_url; ' +
    'status is completed once paid (at once with the built-in local provider). Owners and admins only.',
  input: z.strictObject({ org: OrgParam, credits: z.number().int().min(1).max(MAX_CHECKOUT_CREDITS) }),
  output: z.object({
    checkout_url: z.string(),
    session_id: z.string(),
    status: Status,
    credits: z.number().int(),
    amount_cents: z.number().int(),
    currency: z.string(),
  }),
  annotations: creates,
  scope: 'write',
  access: 'user',
  mcp: false,
  rest: { method: 'POST', path: '/api/billing/checkout', status: 201, query: ['org'] },
  async handler(ctx, input) {
    const org = await billingOrg(ctx, input.org);
    requireManager(org, 'buy credits');
    const provider = paymentProvider(ctx.services);
    const sql = ctx.services.db.pool;
    const id = newId('chk');
    const amountCents = input.credits * PRICE_PER_CREDIT_CENTS;
    await sql.query(
      `INSERT INTO billing_checkout_sessions (id, organization_id, credits, amount_cents, currency, provider, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, org.id, input.credits, amountCents, CURRENCY, provider.name, principalOf(ctx).userId],
    );
    let started;
    try {
      started = await provider.startCheckout({
        sessionId: id,
        organizationId: org.id,
        credits: input.credits,
        amountCents,
        currency: CURRENCY,
        statusUrl: `${ctx.services.baseUrl()}/api/billing/checkout/${id}`,
      });
    } catch (err) {
      ctx.log.error('payment provider failed', { provider: provider.name, error: err instanceof Error ? err.message : String(err) });
      await expireCheckout(sql, id);
      throw new UnavailableError('The payment provider did not start the checkout', { code: 'payment_provider_unavailable', action: 'Try again in a minute' });
    }
    const status = await inTransaction(ctx.services.db.pool, async (tx) => {
      await tx.query(`UPDATE billing_checkout_sessions SET url = $2, provider_ref = $3, updated_at = now() WHERE id = $1`, [id, started.url, started.providerRef]);
      if (started.completed) await completeCheckout(tx, id);
      return (await tx.query<{ status: z.infer<typeof Status> }>(`SELECT status FROM billing_checkout_sessions WHERE id = $1`, [id])).rows[0].status;
    });
    return { checkout_url: started.url, session_id: id, status, credits: input.credits, amount_cents: amountCents, currency: CURRENCY };
  },
});

export const getCheckout = capability({
  name: 'billing.checkout_status',
  title: 'Checkout status',
  description: 'The state of a credit checkout (open, completed or expired) started by your organization.',
  input: z.strictObject({ sessionId: z.string().min(1).max(64) }),
  output: z.object({
    session: z.object({
      id: z.string(),
      organization: z.string(),
      status: Status,
      credits: z.number().int(),
      amount_cents: z.number().int(),
      currency: z.string(),
      provider: z.string(),
      checkout_url: z.string().nullable(),
      created_at: Timestamp,
      completed_at: Timestamp.nullable(),
    }),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  mcp: false,
  rest: { method: 'GET', path: '/api/billing/checkout/:sessionId' },
  async handler(ctx, input) {
    type Row = { id: string; handle: string; status: z.infer<typeof Status>; credits: number; amount_cents: number; currency: string; provider: string; url: string | null; created_at: Date; completed_at: Date | null };
    const [s] = (await ctx.services.db.pool.query<Row>(
      `SELECT c.*, o.handle FROM billing_checkout_sessions c
         JOIN organizations o ON o.id = c.organization_id
         JOIN memberships m ON m.organization_id = o.id AND m.user_id = $2
        WHERE c.id = $1`,
      [input.sessionId, principalOf(ctx).userId],
    )).rows;
    if (!s) throw new NotFoundError('Checkout not found');
    return {
      session: {
        id: s.id,
        organization: s.handle,
        status: s.status,
        credits: s.credits,
        amount_cents: s.amount_cents,
        currency: s.currency,
        provider: s.provider,
        checkout_url: s.url,
        created_at: isoRequired(s.created_at),
        completed_at: iso(s.completed_at),
      },
    };
  },
});
