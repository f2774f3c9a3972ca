import type { ProjectAttrs } from '../models/index.ts';

/**
 * The billing check interviews pass before they are created. The service uses the credit
 * ledger (tools/billing/gate.ts), which throws PaymentRequiredError (402) when the project's
 * organization may not record more; `openBilling` (BILLING=off) lets everything through.
 */
export interface BillingGate {
  /** `seconds`: how long the interview is when that is known before it is created (an imported transcript). */
  checkInterviewAllowed(project: ProjectAttrs, seconds?: number | null): Promise<void>;
}

export const openBilling: BillingGate = {
  async checkInterviewAllowed() {},
};
