import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, errors as joseErrors, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Services } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';

export const REVOKED_EVENT = 'urn:service:agent-auth:event:identity-assertion-revoked';
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** ID-JAGs are meant to live about five minutes; much longer ones are refused. */
const MAX_LIFETIME_SECONDS = 15 * 60;

const fail = (status: number, code: string, message: string) => new AppError(status, message, { code });

const remoteSets = new Map<string, JWTVerifyGetKey>();

/** The key set of a trusted issuer, or issuer_not_enabled. */
async function keysFor(services: Services, issuer: unknown): Promise<{ issuer: string; keys: JWTVerifyGetKey }> {
  if (typeof issuer !== 'string') throw fail(400, 'invalid_request', 'The assertion has no issuer');
  const { rows } = await services.db.pool.query<{ jwks_uri: string | null; jwks: { keys: object[] } | null }>(`SELECT jwks_uri, jwks FROM agent_providers WHERE issuer = $1`, [issuer]);
  const p = rows[0];
  if (!p) throw fail(400, 'issuer_not_enabled', `The issuer ${issuer} is not on this server's trust list`);
  if (p.jwks) return { issuer, keys: createLocalJWKSet(p.jwks as never) };
  let set = remoteSets.get(p.jwks_uri!);
  if (!set) remoteSets.set(p.jwks_uri!, (set = createRemoteJWKSet(new URL(p.jwks_uri!))));
  return { issuer, keys: set };
}

/** Records a jti once per issuer and purpose; a second sighting is a replay. */
async function firstSighting(services: Services, issuer: string, jti: unknown, purpose: string, exp: number): Promise<boolean> {
  if (typeof jti !== 'string' || !jti) throw fail(400, 'invalid_request', 'The token needs a jti');
  await services.db.pool.query(`DELETE FROM agent_seen_jtis WHERE expires_at < now() - interval '1 day'`);
  const { rowCount } = await services.db.pool.query(
    `INSERT INTO agent_seen_jtis (issuer, jti, purpose, expires_at) VALUES ($1, $2, $3, to_timestamp($4)) ON CONFLICT DO NOTHING`,
    [issuer, jti, purpose, exp],
  );
  return rowCount === 1;
}

async function verify(services: Services, token: string, typ: string, expectTyp: string): Promise<JWTPayload & { iss: string }> {
  let header;
  let unverified;
  try {
    header = decodeProtectedHeader(token);
    unverified = decodeJwt(token);
  } catch {
    throw fail(400, 'invalid_request', `The ${typ} is not a JWT`);
  }
  if (header.typ !== expectTyp) throw fail(400, 'invalid_request', `The ${typ} header typ must be ${expectTyp}`);
  const { issuer, keys } = await keysFor(services, unverified.iss);
  const audience = `${services.baseUrl()}/`;
  try {
    const { payload } = await jwtVerify(token, keys, { issuer, typ: expectTyp, clockTolerance: 30 });
    const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!aud.includes(audience)) throw fail(400, 'audience_mismatch', `The ${typ} must be addressed to ${audience}`);
    return payload as JWTPayload & { iss: string };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw fail(400, 'credential_expired', `The ${typ} has expired`);
    if (err instanceof joseErrors.JWTClaimValidationFailed) throw fail(400, 'invalid_request', `The ${typ} is not valid: ${err.claim}`);
    throw fail(400, 'invalid_signature', `The ${typ} signature did not verify`);
  }
}

/** SPEC 5.3: an ID-JAG from a trusted provider, checked in every part. */
export async function verifyIdJag(services: Services, assertion: string): Promise<{ issuer: string; subject: string; email: string }> {
  const payload = await verify(services, assertion, 'assertion', 'oauth-id-jag+jwt');
  if (payload.email_verified !== true || typeof payload.email !== 'string') throw fail(400, 'invalid_request', 'The assertion must carry a verified email (email_verified: true)');
  if (typeof payload.sub !== 'string') throw fail(400, 'invalid_request', 'The assertion needs a sub');
  if (!payload.exp || payload.exp - Math.floor(Date.now() / 1000) > MAX_LIFETIME_SECONDS) throw fail(400, 'invalid_request', 'The assertion must expire within minutes');
  if (!(await firstSighting(services, payload.iss, payload.jti, 'id-jag', payload.exp))) throw fail(400, 'invalid_request', 'The assertion was already used (jti)');
  return { issuer: payload.iss, subject: payload.sub, email: payload.email };
}

/** SPEC 5.6: revokes every credential of the agent named by a trusted logout token. */
export async function revokeByLogoutToken(services: Services, token: string): Promise<number> {
  const payload = await verify(services, token, 'logout token', 'logout+jwt');
  const events = payload.events as Record<string, unknown> | undefined;
  if (!events || !(REVOKED_EVENT in events || BACKCHANNEL_LOGOUT_EVENT in events)) throw fail(400, 'invalid_request', 'The logout token has no revocation event');
  if (typeof payload.sub !== 'string') throw fail(400, 'invalid_request', 'The logout token needs a sub');
  if (!(await firstSighting(services, payload.iss, payload.jti, 'logout', payload.exp ?? Math.floor(Date.now() / 1000) + 86_400))) {
    throw fail(409, 'replay_detected', 'This logout token was already used');
  }
  const { rowCount } = await services.db.pool.query(
    `UPDATE agent_credentials SET revoked_at = now() WHERE revoked_at IS NULL AND registration_id IN
       (SELECT id FROM agent_registrations WHERE provider_issuer = $1 AND provider_subject = $2)`,
    [payload.iss, payload.sub],
  );
  await services.db.pool.query(
    `UPDATE agent_registrations SET status = 'revoked', updated_at = now() WHERE provider_issuer = $1 AND provider_subject = $2`,
    [payload.iss, payload.sub],
  );
  await services.changes.settle();
  return rowCount ?? 0;
}
