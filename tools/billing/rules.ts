/**
 * Billing rules (SPEC 1 leaves them open; docs/decisions.md records them). Amounts are
 * whole credits; money is in cents of one currency.
 */
export const FREE_GRANT_CREDITS = 100;
/** One credit per started ten minutes of interview, at least one. */
export const SECONDS_PER_CREDIT = 600;
export const PRICE_PER_CREDIT_CENTS = 10;
export const CURRENCY = 'usd';
export const MAX_CHECKOUT_CREDITS = 100_000;
export const MAX_GRANT_CREDITS = 1_000_000;
