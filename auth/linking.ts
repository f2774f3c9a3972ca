import express, { type Request, type Router } from 'express';
import type { Configuration } from 'openid-client';
import { openidClient } from './openid.ts';
import type { Services } from '../core/context.ts';
import type { LinkingApp } from '../core/config.ts';
import { AppError, AuthenticationError, ConflictError, UnavailableError, ValidationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { authenticate, bearerFrom } from './principal.ts';
import { safeReturn, signedCookie } from './signed-cookie.ts';
import { cookieOf } from '../rest/cookies.ts';

type Provider = 'codehost' | 'tracker';
const COOKIE = 'verbatim_link';

/** Who the provider says the person is: code hosts answer REST `/user`, trackers GraphQL `viewer`. */
async function identityOf(provider: Provider, app: LinkingApp, token: string): Promise<{ id: string; login: string | null }> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (provider === 'codehost') {
    const res = await fetch(`${app.apiUrl}/user`, { headers, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new AppError(502, `The code host answered HTTP ${res.status} for the account`, { code: 'provider_error', retryable: true });
    const user = (await res.json()) as { id: number | string; login?: string };
    return { id: String(user.id), login: user.login ?? null };
  }
  const res = await fetch(`${app.apiUrl}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ viewer { id name email } }' }), signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new AppError(502, `The tracker answered HTTP ${res.status} for the account`, { code: 'provider_error', retryable: true });
  const viewer = ((await res.json()) as { data?: { viewer?: { id: string; name?: string; email?: string } } }).data?.viewer;
  if (!viewer) throw new AppError(502, 'The tracker did not say who the account is', { code: 'provider_error', retryable: true });
  return { id: viewer.id, login: viewer.email ?? viewer.name ?? null };
}

/**
 * Links a code-host or tracker account to the signed-in person (never a sign-in): an OAuth
 * code flow with PKCE and a signed state cookie; the provider's token is sealed at rest.
 */
export function linkingRoutes(services: Services): Router {
  const router = express.Router();
  const flows = signedCookie<{ provider: Provider; userId: string; state: string; verifier: string; returnTo: string }>(services, 'link_cookie_key', 600);
  const configs = new Map<Provider, Configuration>();
  const configFor = async (provider: Provider) => {
    const app = services.config.linking[provider];
    if (!app.clientId) {
      throw new UnavailableError(`Linking a ${provider === 'codehost' ? 'code-host' : 'tracker'} account is not configured`, {
        code: 'linking_unconfigured',
        retryable: false,
        action: `Set ${provider.toUpperCase()}_CLIENT_ID and ${provider.toUpperCase()}_CLIENT_SECRET`,
      });
    }
    const oidc = await openidClient();
    let config = configs.get(provider);
    if (!config) {
      config = new oidc.Configuration({ issuer: new URL(app.authorizeUrl).origin, authorization_endpoint: app.authorizeUrl, token_endpoint: app.tokenUrl }, app.clientId, app.clientSecret ?? undefined);
      if (app.tokenUrl.startsWith('http:')) oidc.allowInsecureRequests(config);
      configs.set(provider, config);
    }
    return { app, config, oidc };
  };
  const callback = (provider: Provider) => `${services.baseUrl()}/api/auth/${provider}/callback`;

  for (const provider of ['codehost', 'tracker'] as const) {
    router.get(`/api/auth/${provider}/login`, async (req, res, next) => {
      try {
        const principal = await authenticate(services, bearerFrom(req));
        if (!principal || principal.kind !== 'user') throw new AuthenticationError('Sign in first: linking adds an account to yours', { code: 'sign_in_required' });
        const { app, config, oidc } = await configFor(provider);
        const verifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        res.cookie(COOKIE, await flows.seal({ provider, userId: principal.userId, state, verifier, returnTo: safeReturn(req.query.return_to) }), { httpOnly: true, sameSite: 'lax', secure: services.baseUrl().startsWith('https:'), maxAge: 600_000, path: '/api/auth' });
        const url = oidc.buildAuthorizationUrl(config, { redirect_uri: callback(provider), scope: app.scope, state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
        res.redirect(302, url.href);
      } catch (err) {
        next(err);
      }
    });

    router.get(`/api/auth/${provider}/callback`, async (req, res, next) => {
      try {
        const flow = await flows.open(cookieOf(req, COOKIE));
        if (!flow || flow.provider !== provider) throw new ValidationError('The linking expired or was started elsewhere; start again', { code: 'link_state_missing' });
        const { app, config, oidc } = await configFor(provider);
        let tokens;
        try {
          tokens = await oidc.authorizationCodeGrant(config, new URL(req.originalUrl, services.baseUrl()), { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
        } catch (err) {
          throw new AppError(401, `Linking failed: ${err instanceof Error ? err.message : 'the provider refused'}`, { code: 'link_failed' });
        }
        const who = await identityOf(provider, app, tokens.access_token);
        const sealed = services.secrets.seal(tokens.access_token, flow.userId);
        const { rows } = await services.db.pool.query<{ user_id: string }>(`SELECT user_id FROM user_identities WHERE provider = $1 AND external_id = $2`, [provider, who.id]);
        if (rows[0] && rows[0].user_id !== flow.userId) throw new ConflictError('That account is already linked to another person', { code: 'identity_linked_elsewhere' });
        await services.db.pool.query(
          `INSERT INTO user_identities (id, user_id, provider, external_id, login, token_ciphertext, token_key_id) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (user_id, provider) DO UPDATE SET external_id = EXCLUDED.external_id, login = EXCLUDED.login, token_ciphertext = EXCLUDED.token_ciphertext, token_key_id = EXCLUDED.token_key_id, updated_at = now()`,
          [newId('uid'), flow.userId, provider, who.id, who.login, sealed.ciphertext, sealed.keyId],
        );
        res.clearCookie(COOKIE, { path: '/api/auth' });
        res.redirect(302, flow.returnTo);
      } catch (err) {
        next(err);
      }
    });
  }
  return router;
}
