import { createHash, createSecretKey, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { KeyObject } from 'node:crypto';

export const API_KEY_ACT_ISSUER = 'urn:service:agent-api-key';
export const EMAIL_ACT_ISSUER = 'urn:service:agent-email-verification';
export const AGENT_TOKEN_ISSUER = 'urn:service:agent-token';
export const AGENT_AUDIENCE = 'urn:service:api';
/** Access tokens from the e-mail claim live 30 days; the agent restarts discovery when one expires. */
export const ACCESS_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function newApiKey(): string {
  return `vbk_${randomBytes(24).toString('base64url')}`;
}
export function newClaimToken(): string {
  return `clm_${randomBytes(24).toString('base64url')}`;
}
/** Six digits from a CSPRNG; only its hash (with the registration id as salt) is stored. */
export function newOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}
export function otpHash(registrationId: string, otp: string): string {
  return sha256(`${registrationId}:${otp}`);
}
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface AgentTokenClaims {
  sub: string;
  jti: string;
  scope: string;
  act: { iss: string; sub: string };
  /** Expiry, seconds since the epoch (set on every token this service signs). */
  exp?: number;
}

export function agentTokenKey(raw: Buffer): KeyObject {
  return createSecretKey(raw);
}

export async function signAgentToken(key: KeyObject, claims: Omit<AgentTokenClaims, 'jti'> & { jti: string }, expiresAt: Date): Promise<string> {
  return new SignJWT({ scope: claims.scope, act: claims.act })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer(AGENT_TOKEN_ISSUER)
    .setAudience(AGENT_AUDIENCE)
    .setSubject(claims.sub)
    .setJti(claims.jti)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key);
}

export async function verifyAgentToken(key: KeyObject, token: string): Promise<AgentTokenClaims> {
  const { payload } = await jwtVerify(token, key, { issuer: AGENT_TOKEN_ISSUER, audience: AGENT_AUDIENCE, algorithms: ['HS256'], typ: 'at+jwt' });
  return payload as unknown as AgentTokenClaims;
}
