import type { Request } from 'express';
import type { CredentialState, SessionState } from './auth-cache.ts';
import { cookieOf } from '../rest/cookies.ts';
import type { UserPrincipal, Services } from '../core/context.ts';
import { AuthenticationError } from '../core/errors.ts';
import { decodeJwt } from 'jose';
import { AGENT_TOKEN_ISSUER, sha256, verifyAgentToken } from './agent/tokens.ts';

function issuerOf(token: string): string | null {
  try {
    return (decodeJwt(token).iss as string | undefined) ?? null;
  } catch {
    return null;
  }
}

/** Bearer token from the Authorization header, else the `auth_token` cookie. Never the query string. */
export function bearerFrom(req: Request): string | null {
  const header = req.headers.authorization;
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new AuthenticationError('Authorization header must be "Bearer <token>"', { code: 'invalid_token' });
    return m[1];
  }
  return cookieOf(req, 'auth_token') || null;
}

async function sessionState(services: Services, sessionId: string, userId: string): Promise<SessionState> {
  const state = await services.auth.sessions.get(sessionId, async () => {
    const { rows } = await services.db.pool.query<{ is_admin: boolean; expires_at: Date }>({
      name: 'session-state',
      text: `SELECT u.is_admin, s.expires_at FROM user_sessions s JOIN users u ON u.id = s.user_id
              WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      values: [sessionId, userId],
    });
    const row = rows[0];
    return row ? { value: { isAdmin: row.is_admin }, topics: [`session:${sessionId}`, `user:${userId}`], expiresAt: row.expires_at.getTime() } : null;
  });
  if (!state) throw new AuthenticationError('Session is no longer valid', { code: 'session_revoked', action: 'Sign in again' });
  return state;
}

/** An agent credential (api key by its hash, access token by its jti), kept like sessions. */
async function credentialState(services: Services, tokenHash: string): Promise<CredentialState> {
  const state = await services.auth.credentials.get(tokenHash, async () => {
    const { rows } = await services.db.pool.query<{ user_id: string | null; registration_id: string; scopes: string[]; expires_at: Date | null }>({
      name: 'agent-credential',
      text: `SELECT r.user_id, c.registration_id, c.scopes, c.expires_at FROM agent_credentials c JOIN agent_registrations r ON r.id = c.registration_id
              WHERE c.token_hash = $1 AND c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now()) AND r.status <> 'revoked'`,
      values: [tokenHash],
    });
    const row = rows[0];
    if (!row) return null;
    return {
      value: { userId: row.user_id, registrationId: row.registration_id, scopes: row.scopes },
      topics: [`credential:${tokenHash}`, `registration:${row.registration_id}`, ...(row.user_id ? [`user:${row.user_id}`] : [])],
      expiresAt: row.expires_at?.getTime() ?? null,
    };
  });
  if (!state) throw new AuthenticationError('The agent credential is not valid', { code: 'invalid_token', action: 'Drop it and restart discovery' });
  return state;
}

async function agentPrincipal(services: Services, tokenHash: string): Promise<UserPrincipal> {
  const state = await credentialState(services, tokenHash);
  if (!state.userId || !state.scopes.length) {
    throw new AuthenticationError('This agent credential has no access until its registration is claimed', { code: 'claim_required', action: 'Complete the claim with /agent/auth/claim and /agent/auth/claim/complete' });
  }
  return { kind: 'agent', userId: state.userId, isAdmin: false, scopes: state.scopes, sessionId: null, registrationId: state.registrationId };
}

/** Who a token names, once its signature is checked: a user session, or an agent credential by its hash. */
export type TokenIdentity = { kind: 'session'; userId: string; sessionId: string } | { kind: 'credential'; tokenHash: string };

/**
 * Checks a token's signature and reads whom it names. Session and agent tokens are kept until
 * they expire (an API key's hash for good): what they say cannot change, and whether they still
 * count is asked of the session or credential each time. OAuth tokens are never kept: the
 * authorization server answers for them.
 */
async function identify(services: Services, token: string, audience?: string): Promise<TokenIdentity | UserPrincipal> {
  const iss = issuerOf(token);
  if (iss && iss === `${services.baseUrl()}/api/oauth`) {
    // OAuth access tokens are bound to one resource: the REST API (base URL) or the MCP endpoint.
    const oauth = await services.oauth();
    let claims;
    try {
      claims = await oauth.verify(token, audience ?? services.baseUrl());
    } catch {
      throw new AuthenticationError('Invalid, expired or wrong-audience access token', { code: 'invalid_token' });
    }
    const scopes = (claims.scope ?? '').split(' ').filter((s) => s.startsWith('agent:'));
    return { kind: 'agent', userId: claims.sub, isAdmin: false, scopes, sessionId: null };
  }
  if (token.startsWith('vbk_')) return services.auth.verified.keep(token, { kind: 'credential', tokenHash: sha256(token) }, Infinity);
  if (iss === AGENT_TOKEN_ISSUER) {
    let claims;
    try {
      claims = await verifyAgentToken(services.agentTokenKey, token);
    } catch {
      throw new AuthenticationError('Invalid or expired agent token', { code: 'invalid_token', action: 'Drop it and restart discovery' });
    }
    return services.auth.verified.keep(token, { kind: 'credential', tokenHash: sha256(claims.jti) }, (claims.exp ?? 0) * 1000);
  }
  const claims = await services.tokens.verify(token);
  return services.auth.verified.keep(token, { kind: 'session', userId: claims.userId, sessionId: claims.sessionId }, claims.expiresAt);
}

/** Resolves a principal from a token, or throws 401. Returns null when no token was sent. */
export async function authenticate(services: Services, token: string | null, audience?: string): Promise<UserPrincipal | null> {
  if (!token) return null;
  // What this process cached about sessions, credentials and memberships is trusted only once it has heard every change committed before this request (another process may have just revoked it).
  const current = services.changes.settle();
  const identity = services.auth.verified.peek(token) ?? (await identify(services, token, audience));
  await current;
  if (identity.kind === 'credential') return agentPrincipal(services, identity.tokenHash);
  if (identity.kind !== 'session') return identity;
  const state = await sessionState(services, identity.sessionId, identity.userId);
  return { kind: 'user', userId: identity.userId, isAdmin: state.isAdmin, scopes: null, sessionId: identity.sessionId };
}
