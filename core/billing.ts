import type { ProjectRow } from '../models/index.ts';

/**
 * The billing check interviews pass before they are created. Billing rules are not part of
 * the open contract (SPEC 1): the default lets everything through; a billing integration
 * replaces it and throws PaymentRequiredError (402) when a project may not record more.
 */
export interface BillingGate {
  checkInterviewAllowed(project: ProjectRow): Promise<void>;
}

export const openBilling: BillingGate = {
  async checkInterviewAllowed() {},
};
