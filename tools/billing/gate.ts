import type { BillingGate } from '../../core/billing.ts';
import type { Database } from '../../core/database.ts';
import { PaymentRequiredError } from '../../core/errors.ts';
import { accountState } from './ledger.ts';
import type { Sql } from '../../core/tx.ts';

/** Refuses spending (402) once the balance is used up or this month's usage reached the cap. */
export async function checkCanSpend(sql: Sql, organizationId: string): Promise<void> {
  const state = await accountState(sql, organizationId);
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
    async checkInterviewAllowed(project) {
      await checkCanSpend(sql, project.organization_id);
    },
  };
}
