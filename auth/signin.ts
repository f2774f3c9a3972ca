import express, { type Router, type Request } from 'express';
import type { Configuration } from 'openid-client';
import { openidClient } from './openid.ts';
import type { Services } from '../core/context.ts';
import { AppError, UnavailableError, ValidationError } from '../core/errors.ts';
import { routeLimiter } from '../core/rate-limit.ts';
import { inTransaction } from '../core/tx.ts';
import { safeReturn, signedCookie } from './signed-cookie.ts';
import { cookieOf } from '../rest/cookies.ts';
import { ensureUser } from '../tools/account/users.ts';
import { USER_TOKEN_TTL_SECONDS } from './user-tokens.ts';

const FLOW_COOKIE = 'verbatim_signin';
const FLOW_SECONDS = 600;

/**
 * Sign-in with any OpenID provider (Google's by default) through openid-client: code flow
 * with PKCE, state and nonce kept in a signed, short-lived, HTTP-only cookie. The callback
 * creates the person if new and sets the HTTP-only `auth_token` cookie.
 */
export function signInRoutes(services: Services): Router {
  const router = express.Router();
  const cfg = services.config.signIn;
  let discovered: Promise<Configuration> | null = null;
  const configuration = () => {
    if (!cfg.clientId) {
      throw new UnavailableError('Sign-in is not configured on this server', { code: 'sign_in_unconfigured', retryable: false, action: 'Set OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (and OIDC_ISSUER for a provider other than Google)' });
    }
    const clientId = cfg.clientId;
    discovered ??= openidClient()
      .then((oidc) => oidc.discovery(new URL(cfg.issuer), clientId, cfg.clientSecret ?? undefined, undefined, cfg.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : undefined))
      .catch((err) => {
        discovered = null;
        throw err;
      });
    return discovered;
  };
  const flows = signedCookie<{ verifier: string; state: string; nonce: string; returnTo: string }>(services, 'signin_cookie_key', FLOW_SECONDS);
  const callbackUrl = () => `${services.baseUrl()}/api/auth/google/callback`;
  const secure = () => services.baseUrl().startsWith('https:');

  router.get('/api/auth/google/login', routeLimiter(services.db.pool, 'auth.signin', 10), async (req, res, next) => {
    try {
      const config = await configuration();
      const oidc = await openidClient();
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      res.cookie(FLOW_COOKIE, await flows.seal({ verifier, state, nonce, returnTo: safeReturn(req.query.return_to) }), { httpOnly: true, sameSite: 'lax', secure: secure(), maxAge: FLOW_SECONDS * 1000, path: '/api/auth' });
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl(),
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      res.redirect(302, url.href);
    } catch (err) {
      next(err);
    }
  });

  router.get('/api/auth/google/callback', async (req: Request, res, next) => {
    try {
      const config = await configuration();
      const oidc = await openidClient();
      const flow = await flows.open(cookieOf(req, FLOW_COOKIE));
      if (!flow) throw new ValidationError('The sign-in expired or was started elsewhere; start again', { code: 'sign_in_state_missing' });
      let tokens;
      try {
        tokens = await oidc.authorizationCodeGrant(config, new URL(req.originalUrl, services.baseUrl()), { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce });
      } catch (err) {
        throw new AppError(401, `Sign-in failed: ${err instanceof Error ? err.message : 'the provider refused'}`, { code: 'sign_in_failed' });
      }
      let claims: Record<string, unknown> = tokens.claims()!;
      // Some providers put e-mail in the ID token (Google), others only in userinfo.
      if (typeof claims.email !== 'string') claims = { ...claims, ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub as string)) };
      if (typeof claims.email !== 'string' || claims.email_verified !== true) throw new AppError(401, 'The provider did not confirm an e-mail address', { code: 'email_unverified' });
      const user = await inTransaction(services.db.pool, (sql) => ensureUser({ email: claims.email as string, name: typeof claims.name === 'string' ? claims.name : null }, sql));
      const { token } = await services.tokens.issue(user.id, 'sign-in');
      res.clearCookie(FLOW_COOKIE, { path: '/api/auth' });
      res.cookie('auth_token', token, { httpOnly: true, sameSite: 'lax', secure: secure(), maxAge: USER_TOKEN_TTL_SECONDS * 1000, path: '/' });
      res.redirect(302, flow.returnTo);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
