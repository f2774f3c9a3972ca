import { lazyModule } from '../core/lazy.ts';

/** openid-client (and oauth4webapi under it) loads with the first sign-in or account link, not in every process. */
export const openidClient = lazyModule(() => import('openid-client'));
