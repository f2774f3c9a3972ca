import { createSecretKey } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Sql } from '../core/tx.ts';
import { newId } from '../core/ids.ts';
import { AuthenticationError } from '../core/errors.ts';

const ISSUER = 'urn:service:user-session';
const AUDIENCE = 'urn:service:api';
/** User bearer tokens live 30 days (SPEC leaves the lifetime open; see docs/decisions.md). */
export const USER_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export interface UserTokenClaims {
  userId: string;
  sessionId: string;
  /** When the token expires, in ms since the epoch. */
  expiresAt: number;
}

export interface UserTokens {
  issue(userId: string, origin: string): Promise<{ token: string; sessionId: string; expiresAt: Date }>;
  verify(token: string): Promise<UserTokenClaims>;
}

export function createUserTokens(rawKey: Uint8Array, sql: Sql): UserTokens {
  // A KeyObject spares jose a key import on every verification.
  const key = createSecretKey(rawKey);
  return {
    async issue(userId, origin) {
      const sessionId = newId('usn');
      const expiresAt = new Date(Date.now() + USER_TOKEN_TTL_SECONDS * 1000);
      await sql.query(`INSERT INTO user_sessions (id, user_id, origin, expires_at) VALUES ($1, $2, $3, $4)`, [sessionId, userId, origin, expiresAt]);
      const token = await new SignJWT({ sid: sessionId, typ: 'user' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
      return { token, sessionId, expiresAt };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        if (payload.typ !== 'user' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') {
          throw new AuthenticationError('Invalid token', { code: 'invalid_token' });
        }
        return { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
      } catch (err) {
        if (err instanceof AuthenticationError) throw err;
        if (err instanceof joseErrors.JWTExpired) throw new AuthenticationError('Token expired', { code: 'token_expired', action: 'Sign in again' });
        throw new AuthenticationError('Invalid token', { code: 'invalid_token' });
      }
    },
  };
}
