import { z } from 'zod';
import type { OrgContext } from '../../core/context.ts';
import { Timestamp, iso, isoRequired } from '../common.ts';
import { accountState, entryByKey, type LedgerEntry } from './ledger.ts';
import { canManageCredits } from './account.ts';
import { CURRENCY, FREE_GRANT_CREDITS, PRICE_PER_CREDIT_CENTS, SECONDS_PER_CREDIT } from './rules.ts';
import type { Sql } from '../../core/tx.ts';

export const LedgerKindSchema = z.enum(['grant', 'usage', 'failure', 'purchase', 'refund']);

export const Billing = z.object({
  organization: z.string().describe('Handle of the organization'),
  payment_status: z.enum(['none', 'active', 'past_due']),
  spending_cap: z.number().int().nullable().describe('Most credits interviews may use per calendar month (UTC); null: no cap'),
  balance: z.number().int().describe('Credits left; at 0 or below new interviews answer 402 credits_exhausted'),
  usage_this_month: z.number().int().describe('Credits charged for interviews since period_start'),
  period_start: Timestamp,
  free_grant: z.object({ credits: z.number().int(), granted_at: Timestamp.nullable() }),
  rates: z.object({ minutes_per_credit: z.number().int(), price_per_credit_cents: z.number().int(), currency: z.string() }),
  can_manage_credits: z.boolean().describe('Whether the caller may set the cap and buy credits (owners and admins)'),
});

export async function billingRecord(sql: Sql, org: OrgContext): Promise<z.input<typeof Billing>> {
  const state = await accountState(sql, org.id);
  const free = await entryByKey(sql, `free:${org.id}`);
  return {
    organization: org.handle,
    payment_status: state.payment_status,
    spending_cap: state.spending_cap,
    balance: state.balance,
    usage_this_month: state.usage_this_month,
    period_start: isoRequired(state.period_start),
    free_grant: { credits: free?.amount ?? FREE_GRANT_CREDITS, granted_at: iso(free?.created_at) },
    rates: { minutes_per_credit: SECONDS_PER_CREDIT / 60, price_per_credit_cents: PRICE_PER_CREDIT_CENTS, currency: CURRENCY },
    can_manage_credits: canManageCredits(org),
  };
}

export const BillingEvent = z.object({
  id: z.string(),
  kind: LedgerKindSchema,
  credits: z.number().int().describe('Signed: grants and purchases add, usage subtracts, failures are 0'),
  interview_id: z.string().nullable(),
  description: z.string(),
  created_at: Timestamp,
});

export const eventRecord = (e: LedgerEntry): z.input<typeof BillingEvent> => ({
  id: e.id,
  kind: e.kind,
  credits: e.amount,
  interview_id: e.interview_id,
  description: e.description,
  created_at: isoRequired(e.created_at),
});
