import type { BillingGate } from '../../core/billing.ts';
import type { Database } from '../../core/database.ts';
import { PaymentRequiredError } from '../../core/errors.ts';
import { accountState } from './ledger.ts';
import { SECONDS_PER_CREDIT } from './rules.ts';
import type { Sql } from '../../core/tx.ts';

/**
 * Refuses spending (402) once the balance is used up or this month's usage reached the cap; with
 * the credits an interview will cost known beforehand, also when it would cost more than is left.
 */
export async function checkCanSpend(sql: Sql, organizationId: string, seconds: number | null = null): Promise<void> {
  const state = await accountState(sql, organizationId);
  const credits = seconds ? Math.max(1, Math.ceil(seconds / SECONDS_PER_CREDIT)) : 0;
  if (credits > 1 && state.balance > 0 && credits > state.balance) {
    const runs = seconds! >= 7200 ? `${Math.round(seconds! / 3600)} hours` : `${Math.round(seconds! / 60)} minutes`;
    throw new PaymentRequiredError(`This interview runs about ${runs}, which costs ${credits} credits; the organization has ${state.balance} left`, {
      code: 'credits_exhausted',
      retryable: false,
      action: 'Check the transcript is one interview (times, or one line per turn), or an owner or admin can buy credits with POST /api/billing/checkout',
    });
  }
  if (credits > 1 && state.spending_cap !== null && state.usage_this_month < state.spending_cap && state.usage_this_month + credits > state.spending_cap) {
    throw new PaymentRequiredError(`This interview costs ${credits} credits, more than the ${state.spending_cap - state.usage_this_month} left under this month's spending cap`, {
      code: 'spending_cap_reached',
      retryable: false,
      action: 'An owner or admin can raise or remove the cap with PATCH /api/billing { spending_cap }, or wait for next month',
    });
  }
  if (state.balance <= 0) {
    throw new PaymentRequiredError('This organization has no credits left', {
      code: 'credits_exhausted',
      retryable: false,
      action: 'An owner or admin can buy credits with POST /api/billing/checkout (see GET /api/billing), or an operator can grant some',
    });
  }
  if (state.spending_cap !== null && state.usage_this_month >= state.spending_cap) {
    throw new PaymentRequiredError(`This organization reached its spending cap of ${state.spending_cap} credits for this month`, {
      code: 'spending_cap_reached',
      retryable: false,
      action: 'An owner or admin can raise or remove the cap with PATCH /api/billing { spending_cap }, or wait for next month',
    });
  }
}

/** The BillingGate backed by the credit ledger. */
export function creditBilling(db: Database): BillingGate {
  const sql = db.pool;
  return {
    async checkInterviewAllowed(project, seconds) {
      await checkCanSpend(sql, project.organization_id, seconds);
    },
  };
}
