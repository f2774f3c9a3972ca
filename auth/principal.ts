import type { Request } from 'express';
import { recheckCache } from './recheck-cache.ts';
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
  const cookie = (req as Request & { cookies?: Record<string, string> }).cookies?.auth_token;
  return cookie || null;
}

interface SessionState {
  isAdmin: boolean;
}

/**
 * How long a process trusts its last look at a session row. Revocation in this process
 * takes effect at once (forgetSession); in other processes within this many milliseconds.
 */
export const SESSION_RECHECK_MS = 5_000;
const sessions = recheckCache<string, SessionState>(SESSION_RECHECK_MS);

export function forgetSession(sessionId: string): void {
  sessions.delete(sessionId);
}

async function sessionState(services: Services, sessionId: string, userId: string): Promise<SessionState> {
  const state = await sessions.get(sessionId, async () => {
    const { rows } = await services.db.pool.query<{ is_admin: boolean }>({
      name: 'session-state',
      text: `SELECT u.is_admin FROM user_sessions s JOIN users u ON u.id = s.user_id
              WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      values: [sessionId, userId],
    });
    return rows[0] ? { isAdmin: rows[0].is_admin } : null;
  });
  if (!state) throw new AuthenticationError('Session is no longer valid', { code: 'session_revoked', action: 'Sign in again' });
  return state;
}

interface CredentialState {
  userId: string | null;
  registrationId: string;
  scopes: string[];
}
const credentials = recheckCache<string, CredentialState>(SESSION_RECHECK_MS);

/** A claim changed this registration's credentials: this process stops trusting its copy at once. */
export function forgetRegistration(registrationId: string): void {
  credentials.deleteWhere((state) => state.registrationId === registrationId);
}

/** An agent credential (api key by its hash, access token by its jti), re-read like sessions. */
async function credentialState(services: Services, tokenHash: string): Promise<CredentialState> {
  const state = await credentials.get(tokenHash, async () => {
    const { rows } = await services.db.pool.query<{ user_id: string | null; registration_id: string; scopes: string[] }>({
      name: 'agent-credential',
      text: `SELECT r.user_id, c.registration_id, c.scopes FROM agent_credentials c JOIN agent_registrations r ON r.id = c.registration_id
              WHERE c.token_hash = $1 AND c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now()) AND r.status <> 'revoked'`,
      values: [tokenHash],
    });
    return rows[0] ? { userId: rows[0].user_id, registrationId: rows[0].registration_id, scopes: rows[0].scopes } : null;
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

/** Resolves a principal from a token, or throws 401. Returns null when no token was sent. */
export async function authenticate(services: Services, token: string | null, audience?: string): Promise<UserPrincipal | null> {
  if (!token) return null;
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
  if (token.startsWith('vbk_')) return agentPrincipal(services, sha256(token));
  if (iss === AGENT_TOKEN_ISSUER) {
    let claims;
    try {
      claims = await verifyAgentToken(services.agentTokenKey, token);
    } catch {
      throw new AuthenticationError('Invalid or expired agent token', { code: 'invalid_token', action: 'Drop it and restart discovery' });
    }
    return agentPrincipal(services, sha256(claims.jti));
  }
  const claims = await services.tokens.verify(token);
  const state = await sessionState(services, claims.sessionId, claims.userId);
  return { kind: 'user', userId: claims.userId, isAdmin: state.isAdmin, scopes: null, sessionId: claims.sessionId };
}
