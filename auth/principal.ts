import type { Request } from 'express';
import type { UserPrincipal, Services } from '../core/context.ts';
import { AuthenticationError } from '../core/errors.ts';

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
  checkedAt: number;
}

/**
 * How long a process trusts its last look at a session row. Revocation in this process
 * takes effect at once (forgetSession); in other processes within this many milliseconds.
 */
export const SESSION_RECHECK_MS = 5_000;
const sessions = new Map<string, SessionState>();

export function forgetSession(sessionId: string): void {
  sessions.delete(sessionId);
}

async function sessionState(services: Services, sessionId: string, userId: string): Promise<SessionState> {
  const cached = sessions.get(sessionId);
  if (cached && Date.now() - cached.checkedAt < SESSION_RECHECK_MS) return cached;
  const { rows } = await services.db.pool.query<{ is_admin: boolean }>({
    name: 'session-state',
    text: `SELECT u.is_admin FROM user_sessions s JOIN users u ON u.id = s.user_id
            WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`,
    values: [sessionId, userId],
  });
  if (!rows[0]) {
    sessions.delete(sessionId);
    throw new AuthenticationError('Session is no longer valid', { code: 'session_revoked', action: 'Sign in again' });
  }
  if (sessions.size > 10_000) sessions.clear();
  const state = { isAdmin: rows[0].is_admin, checkedAt: Date.now() };
  sessions.set(sessionId, state);
  return state;
}

/** Resolves a principal from a token, or throws 401. Returns null when no token was sent. */
export async function authenticate(services: Services, token: string | null): Promise<UserPrincipal | null> {
  if (!token) return null;
  const claims = await services.tokens.verify(token);
  const state = await sessionState(services, claims.sessionId, claims.userId);
  return { kind: 'user', userId: claims.userId, isAdmin: state.isAdmin, scopes: null, sessionId: claims.sessionId };
}
