import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import { signingKeys } from './keys.ts';
import type { Services } from '../../core/context.ts';
import { pgAdapter } from './adapter.ts';
import { serverSecret } from '../../core/server-secrets.ts';

export const RESOURCE_SCOPES = ['agent:read', 'agent:write'];
export const OIDC_SCOPES = ['openid', 'offline_access', 'profile', 'email'];

export const issuerOf = (base: string) => `${base}/api/oauth`;
export const mcpResource = (base: string) => `${base}/mcp`;

export interface OAuth {
  provider: Provider;
  issuer: string;
  publicJwks: { keys: JWK[] };
  /** Verifies an access token issued here for the given resource (audience). */
  verify(token: string, audience: string): Promise<{ sub: string; scope: string; client_id: string }>;
}

export interface OAuthOptions {
  /** Seconds an access token lives (one hour; tests shorten it to see a refresh). */
  accessTokenTTL?: number;
}

/**
 * The authorization server: oidc-provider with OAuth 2.1 defaults (code + PKCE S256 for every
 * client, no implicit or hybrid response types, rotating refresh tokens), dynamic registration
 * with RFC 7592 management, and resource indicators so access tokens are JWTs bound to the MCP
 * endpoint or the REST API.
 */
export async function createOAuth(services: Services, { accessTokenTTL = 3600 }: OAuthOptions = {}): Promise<OAuth> {
  // oidc-provider (~7 MiB of heap) loads when the first OAuth request or token arrives (services.oauth() is lazy).
  const { default: Provider, errors } = await import('oidc-provider');
  const base = services.baseUrl();
  const issuer = issuerOf(base);
  const keys = await signingKeys(services.db.pool);
  const cookieKey = (await serverSecret(services.db.pool, 'oauth_cookie_key')).toString('base64url');
  const resources = new Set([mcpResource(base), base]);

  const configuration: Configuration = {
    adapter: pgAdapter(services.db.pool),
    jwks: { keys: keys as never },
    cookies: { keys: [cookieKey] },
    scopes: [...OIDC_SCOPES, ...RESOURCE_SCOPES],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    // A client that registered the refresh_token grant gets a refresh token whether or not it
    // asked for offline_access (MCP clients ask for the resource's scopes), and that token
    // outlives the consent browser's session. Every refresh rotates it.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async (ctx, code) => !code.scopes.has('offline_access') && !ctx.oidc.client?.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'ES256', scope: [...OIDC_SCOPES, ...RESOURCE_SCOPES].join(' ') } as never,
    routes: { authorization: '/authorize', token: '/token', registration: '/register', jwks: '/jwks', revocation: '/revoke', end_session: '/logout', userinfo: '/me' },
    interactions: { url: (_ctx, interaction) => `/api/oauth/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      registrationManagement: { enabled: true, rotateRegistrationAccessToken: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpResource(base),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (!resources.has(indicator)) throw new errors.InvalidTarget(`unknown resource ${indicator}`);
          return { scope: RESOURCE_SCOPES.join(' '), audience: indicator, accessTokenTTL, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
    async findAccount(_ctx, id) {
      const user = (await services.db.pool.query<{ email: string; name: string | null }>('SELECT email, name FROM users WHERE id = $1', [id])).rows[0];
      if (!user) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: user.email, email_verified: true, name: user.name ?? undefined }) };
    },
    ttl: { AccessToken: accessTokenTTL, AuthorizationCode: 60, RefreshToken: 30 * 86_400, Grant: 365 * 86_400, Interaction: 3600, Session: 14 * 86_400, IdToken: 3600 },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = services.config.trustProxy !== false;
  provider.use(secretExpiryAlways);
  const publicJwks = { keys: keys.map(({ d: _d, ...pub }) => pub as JWK) };
  const keySet = createLocalJWKSet(publicJwks as never);
  return {
    provider,
    issuer,
    publicJwks,
    async verify(token, audience) {
      const { payload } = await jwtVerify(token, keySet, { issuer, audience, typ: 'at+jwt' });
      return payload as unknown as { sub: string; scope: string; client_id: string };
    },
  };
}

/**
 * SPEC 2.14 requires `client_secret_expires_at` in every registration response; oidc-provider
 * only sends it with a secret. A public client's secret never expires because it has none: 0.
 */
async function secretExpiryAlways(ctx: { oidc?: { route?: string }; status: number; body: unknown }, next: () => Promise<void>) {
  await next();
  const route = ctx.oidc?.route;
  if ((route === 'registration' || route === 'client' || route === 'client_update') && ctx.status < 300 && ctx.body && typeof ctx.body === 'object') {
    (ctx.body as Record<string, unknown>).client_secret_expires_at ??= 0;
  }
}
