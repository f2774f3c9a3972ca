import type { Request } from 'express';
import type { Principal, Services } from '../core/context.ts';
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

/** Resolves a principal from a token, or throws 401. Returns null when no token was sent. */
export async function authenticate(services: Services, token: string | null): Promise<Principal | null> {
  if (!token) return null;
  const claims = await services.tokens.verify(token);
  const [rows] = await services.db.sequelize.query(
    `SELECT u.is_admin, s.revoked_at, s.expires_at
       FROM user_sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = $1 AND s.user_id = $2`,
    { bind: [claims.sessionId, claims.userId] },
  );
  const row = (rows as Array<{ is_admin: boolean; revoked_at: Date | null; expires_at: Date }>)[0];
  if (!row || row.revoked_at || row.expires_at.getTime() < Date.now()) {
    throw new AuthenticationError('Session is no longer valid', { code: 'session_revoked', action: 'Sign in again' });
  }
  return { kind: 'user', userId: claims.userId, isAdmin: row.is_admin, scopes: null, sessionId: claims.sessionId };
}
