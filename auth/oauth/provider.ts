import Provider, { errors, type Configuration } from 'oidc-provider';
import { exportJWK, generateKeyPair, createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import type { Services } from '../../core/context.ts';
import { pgAdapter } from './adapter.ts';
import { serverSecret } from '../../core/server-secrets.ts';

export const RESOURCE_SCOPES = ['agent:read', 'agent:write'];
export const OIDC_SCOPES = ['openid', 'offline_access', 'profile', 'email'];

export const issuerOf = (base: string) => `${base}/api/oauth`;
export const mcpResource = (base: string) => `${base}/mcp`;

/** The ES256 signing key, created once and kept in the database so every process signs alike. */
async function signingKey(services: Services): Promise<JWK> {
  const { rows } = await services.db.pool.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'oauth_signing_jwk'`);
  if (rows[0]) return JSON.parse(rows[0].value) as JWK;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: `es256-${Date.now().toString(36)}`, alg: 'ES256', use: 'sig' };
  await services.db.pool.query(`INSERT INTO server_secrets (name, value) VALUES ('oauth_signing_jwk', $1) ON CONFLICT (name) DO NOTHING`, [JSON.stringify(jwk)]);
  return signingKey(services);
}

export interface OAuth {
  provider: Provider;
  issuer: string;
  publicJwks: { keys: JWK[] };
  /** Verifies an access token issued here for the given resource (audience). */
  verify(token: string, audience: string): Promise<{ sub: string; scope: string; client_id: string }>;
}

/**
 * The authorization server: oidc-provider with OAuth 2.1 defaults (code + PKCE S256 for every
 * client, rotating refresh tokens), dynamic registration with RFC 7592 management, and
 * resource indicators so access tokens are JWTs bound to the MCP endpoint or the REST API.
 */
export async function createOAuth(services: Services): Promise<OAuth> {
  const base = services.baseUrl();
  const issuer = issuerOf(base);
  const key = await signingKey(services);
  const { d: _d, ...publicKey } = key;
  const cookieKey = (await serverSecret(services.db.sequelize, 'oauth_cookie_key')).toString('base64url');
  const resources = new Set([mcpResource(base), base]);

  const configuration: Configuration = {
    adapter: pgAdapter(services.db.pool),
    jwks: { keys: [key as never] },
    cookies: { keys: [cookieKey] },
    scopes: [...OIDC_SCOPES, ...RESOURCE_SCOPES],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    pkce: { required: () => true },
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
          return { scope: RESOURCE_SCOPES.join(' '), audience: indicator, accessTokenTTL: 3600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
    async findAccount(_ctx, id) {
      const user = await services.models.User.findByPk(id);
      if (!user) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: user.email, email_verified: true, name: user.name ?? undefined }) };
    },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, RefreshToken: 30 * 86_400, Grant: 365 * 86_400, Interaction: 3600, Session: 14 * 86_400, IdToken: 3600 },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = services.config.trustProxy !== false;
  const publicJwks = { keys: [publicKey as JWK] };
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
