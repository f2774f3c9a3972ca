import type { Services } from '../../core/context.ts';

export interface CheckoutRequest {
  sessionId: string;
  organizationId: string;
  credits: number;
  amountCents: number;
  currency: string;
  /** Where the buyer can see the checkout's state (our own status route). */
  statusUrl: string;
}

export interface CheckoutStarted {
  /** Where to send the buyer: a provider's hosted payment page, or the status URL. */
  url: string;
  providerRef: string;
  /** True when paid already; otherwise the provider confirms later with a `checkout.completed` webhook. */
  completed: boolean;
}

export interface PaymentProvider {
  readonly name: string;
  startCheckout(request: CheckoutRequest): Promise<CheckoutStarted>;
}

/** Self-hosted default: no money moves, the checkout completes at once. */
export const localProvider: PaymentProvider = {
  name: 'local',
  async startCheckout(request) {
    return { url: request.statusUrl, providerRef: request.sessionId, completed: true };
  },
};

export function paymentProvider(_services: Services): PaymentProvider {
  return localProvider;
}
