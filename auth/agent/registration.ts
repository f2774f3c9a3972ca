import { z } from 'zod';
import type { Services } from '../../core/context.ts';
import { AppError, RateLimitedError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { describeIssues } from '../../core/invoke.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import { ensureUser } from '../../tools/account/users.ts';
import { sanitiseContext } from './sanitize.ts';
import { verifyIdJag } from './assertions.ts';
import { ACCESS_TOKEN_TTL_SECONDS, EMAIL_ACT_ISSUER, newApiKey, newClaimToken, newOtp, otpHash, sameHash, sha256, signAgentToken } from './tokens.ts';
import type { KeyObject } from 'node:crypto';

const REGISTRATION_DAYS = 7;
const CLAIM_TOKEN_HOURS = 24;
const OTP_MINUTES = 10;
const MAX_FAILURES = 5;
const LOCK_MINUTES = 60;
const MAILS_PER_HOUR = 3;
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

/** SPEC 7.5 errors carry their code as given; the status follows the SPEC where it names one. */
const agentError = (status: number, code: string, message: string, details?: Record<string, unknown>) => new AppError(status, message, { code, details });

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body);
  if (!r.success) throw agentError(400, 'invalid_request', describeIssues(r.error));
  return r.data;
}

const Email = z.email().max(320);

export interface AgentDeps {
  services: Services;
  tokenKey: KeyObject;
}

const later = (ms: number) => new Date(Date.now() + ms);

async function throttleMail(services: Services, recipient: string): Promise<void> {
  const { rows } = await services.db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM otp_mail_log WHERE lower(recipient) = lower($1) AND sent_at > now() - interval '1 hour'`,
    [recipient],
  );
  if (rows[0].n >= MAILS_PER_HOUR) throw new RateLimitedError('Too many claim e-mails to this address; try again within the hour', { code: 'rate_limited', details: { reason: 'email_throttle' } });
}

/** Sends the OTP mail; a failure is 502 send_failed and the caller's transaction rolls back. */
async function mailOtp(services: Services, to: string, otp: string, context: string | null): Promise<void> {
  try {
    await services.mailer.send({
      to,
      subject: `Your Verbatim agent claim code: ${otp}`,
      text: [
        `An AI agent${context ? ` ("${context}")` : ''} asked to act for you on Verbatim.`,
        '',
        `Your claim code is ${otp}. It expires in ${OTP_MINUTES} minutes.`,
        '',
        'If you did not expect this, ignore this e-mail: nothing happens without the code.',
      ].join('\n'),
    });
  } catch {
    throw agentError(502, 'send_failed', 'The claim e-mail could not be sent; the registration was not kept');
  }
  await services.db.pool.query(`INSERT INTO otp_mail_log (recipient) VALUES ($1)`, [to]);
}

const RegisterBody = z.object({
  type: z.string(),
  assertion_type: z.string().optional(),
  assertion: z.string().max(8000).optional(),
  requested_credential_type: z.string().optional(),
  scopes: z.array(z.string()).max(10).optional(),
  agent_context: z.unknown().optional(),
});

/** A trusted provider vouches for the agent and its person: claimed at once, write access on request. */
async function registerWithIdJag({ services, tokenKey }: AgentDeps, input: z.output<typeof RegisterBody>) {
  if (input.requested_credential_type !== 'access_token') throw agentError(400, 'unsupported_credential_type', 'ID-JAG registration issues requested_credential_type "access_token"');
  if (!input.assertion) throw agentError(400, 'invalid_request', 'assertion is required');
  const unknown = (input.scopes ?? []).filter((s) => s !== 'agent:read' && s !== 'agent:write');
  if (unknown.length) throw agentError(400, 'invalid_request', `Unknown scopes: ${unknown.join(', ')}`);
  const who = await verifyIdJag(services, input.assertion);
  const scopes = input.scopes?.includes('agent:write') ? ['agent:read', 'agent:write'] : ['agent:read'];
  const id = newId('reg');
  const jti = newId('atk');
  const expires = later(ACCESS_TOKEN_TTL_SECONDS * 1000);
  const token = await inTransaction(services.db.pool, async (sql) => {
    const user = await ensureUser({ email: who.email }, sql);
    await sql.query(
      `INSERT INTO agent_registrations (id, registration_type, status, email, user_id, agent_context, claimed_at, expires_at, post_claim_scopes, provider_issuer, provider_subject)
       VALUES ($1, 'agent-provider', 'claimed', $2, $3, $4, now(), $5, $6, $7, $8)`,
      [id, who.email, user.id, sanitiseContext(input.agent_context), expires, scopes, who.issuer, who.subject],
    );
    await sql.query(`INSERT INTO agent_credentials (id, registration_id, kind, token_hash, scopes, expires_at) VALUES ($1, $2, 'access_token', $3, $4, $5)`, [jti, id, sha256(jti), scopes, expires]);
    return signAgentToken(tokenKey, { sub: user.id, jti, scope: scopes.join(' '), act: { iss: who.issuer, sub: who.subject } }, expires);
  });
  return { registration_id: id, registration_type: 'agent-provider', credential_type: 'access_token', credential: token, credential_expires: expires.toISOString(), scopes };
}

export async function register({ services, tokenKey }: AgentDeps, body: unknown) {
  const input = parse(RegisterBody, body);
  const base = services.baseUrl();
  const context = sanitiseContext(input.agent_context);
  if (input.type === 'anonymous') {
    if (input.requested_credential_type !== 'api_key') throw agentError(400, 'unsupported_credential_type', 'Anonymous registration issues requested_credential_type "api_key"');
    const id = newId('reg');
    const key = newApiKey();
    const claimToken = newClaimToken();
    const claimExpires = later(CLAIM_TOKEN_HOURS * 3600_000);
    await inTransaction(services.db.pool, async (sql) => {
      await sql.query(
        `INSERT INTO agent_registrations (id, registration_type, status, agent_context, claim_token_hash, claim_token_expires_at, expires_at)
         VALUES ($1, 'anonymous', 'registered', $2, $3, $4, $5)`,
        [id, context, sha256(claimToken), claimExpires, later(REGISTRATION_DAYS * 86_400_000)],
      );
      await sql.query(`INSERT INTO agent_credentials (id, registration_id, kind, token_hash, scopes) VALUES ($1, $2, 'api_key', $3, '{}')`, [newId('acr'), id, sha256(key)]);
    });
    return {
      registration_id: id,
      registration_type: 'anonymous',
      credential_type: 'api_key',
      credential: key,
      credential_expires: null,
      scopes: [],
      claim_url: `${base}/agent/auth/claim`,
      claim_token: claimToken,
      claim_token_expires: claimExpires.toISOString(),
      post_claim_scopes: ['agent:read'],
    };
  }
  if (input.type !== 'identity_assertion') throw agentError(400, 'unsupported_method', `type "${input.type}" is not accepted: use anonymous or identity_assertion`);
  if (input.assertion_type === ID_JAG) return registerWithIdJag({ services, tokenKey }, input);
  if (input.assertion_type !== 'verified_email') throw agentError(400, 'unsupported_method', 'assertion_type must be verified_email or the ID-JAG token type');
  if (input.requested_credential_type !== 'access_token') throw agentError(400, 'unsupported_credential_type', 'verified_email registration issues requested_credential_type "access_token"');
  const email = parse(Email, input.assertion);
  await throttleMail(services, email);
  const id = newId('reg');
  const claimToken = newClaimToken();
  const claimExpires = later(CLAIM_TOKEN_HOURS * 3600_000);
  const otp = newOtp();
  await inTransaction(services.db.pool, async (sql) => {
    await sql.query(
      `INSERT INTO agent_registrations (id, registration_type, status, email, agent_context, claim_token_hash, claim_token_expires_at, claim_attempt_id, otp_hash, otp_expires_at, expires_at)
       VALUES ($1, 'email-verification', 'claim_in_progress', $2, $3, $4, $5, $6, $7, $8, $9)`,
      [id, email, context, sha256(claimToken), claimExpires, newId('cla'), otpHash(id, otp), later(OTP_MINUTES * 60_000), later(REGISTRATION_DAYS * 86_400_000)],
    );
    await mailOtp(services, email, otp, context);
  });
  return {
    registration_id: id,
    registration_type: 'email-verification',
    claim_url: `${base}/agent/auth/claim`,
    claim_token: claimToken,
    claim_token_expires: claimExpires.toISOString(),
    post_claim_scopes: ['agent:read'],
  };
}

interface RegistrationRow {
  id: string;
  registration_type: string;
  status: string;
  email: string | null;
  agent_context: string | null;
  claim_token_expires_at: Date;
  otp_hash: string | null;
  otp_expires_at: Date | null;
  otp_failures: number;
  locked_until: Date | null;
  expires_at: Date;
  post_claim_scopes: string[];
}

/** The registration of a claim token, locked FOR UPDATE in the caller's transaction. */
async function registrationFor(claimToken: string, sql: Sql): Promise<RegistrationRow> {
  const [reg] = (await sql.query<RegistrationRow>(`SELECT * FROM agent_registrations WHERE claim_token_hash = $1 FOR UPDATE`, [sha256(claimToken)])).rows;
  if (!reg) throw agentError(400, 'invalid_claim_token', 'The claim token is not valid');
  if (reg.expires_at.getTime() < Date.now()) throw agentError(400, 'claim_expired', 'The registration has expired; register again');
  if (reg.status === 'claimed') throw agentError(409, 'previously_claimed', 'This registration is already claimed');
  if (reg.claim_token_expires_at.getTime() < Date.now()) throw agentError(400, 'invalid_claim_token', 'The claim token has expired');
  if (reg.locked_until && reg.locked_until.getTime() > Date.now()) throw agentError(429, 'otp_locked', 'Too many wrong codes: the claim is locked for an hour');
  return reg;
}

const ClaimBody = z.object({ claim_token: z.string().min(1).max(200), email: Email, agent_context: z.unknown().optional() });

/** Starts (or restarts) a claim: a new OTP to the e-mail, the failure counter reset. */
export async function claim({ services }: AgentDeps, body: unknown) {
  const input = parse(ClaimBody, body);
  await throttleMail(services, input.email);
  const otp = newOtp();
  const attempt = newId('cla');
  const expires = later(OTP_MINUTES * 60_000);
  const reg = await inTransaction(services.db.pool, async (sql) => {
    const r = await registrationFor(input.claim_token, sql);
    const context = sanitiseContext(input.agent_context) ?? r.agent_context;
    await sql.query(
      `UPDATE agent_registrations SET status = 'claim_in_progress', email = $2, agent_context = $3, claim_attempt_id = $4, otp_hash = $5, otp_expires_at = $6, otp_failures = 0, updated_at = now() WHERE id = $1`,
      [r.id, input.email, context, attempt, otpHash(r.id, otp), expires],
    );
    await mailOtp(services, input.email, otp, context);
    return r;
  });
  return { registration_id: reg.id, claim_attempt_id: attempt, status: 'initiated', expires_at: expires.toISOString() };
}

const CompleteBody = z.object({ claim_token: z.string().min(1).max(200), otp: z.string().regex(/^\d{6}$/, 'must be 6 digits') });

export async function complete({ services, tokenKey }: AgentDeps, body: unknown) {
  const input = parse(CompleteBody, body);
  // Wrong codes are counted in their own transaction, so the count survives the error answer.
  const outcome = await inTransaction(services.db.pool, async (sql) => {
    const r = await registrationFor(input.claim_token, sql);
    if (!r.otp_hash || !r.email) return { error: agentError(400, 'invalid_request', 'Start the claim with /agent/auth/claim first') };
    if (!r.otp_expires_at || r.otp_expires_at.getTime() < Date.now()) return { error: agentError(400, 'otp_expired', 'The code has expired; request a new one with /agent/auth/claim') };
    if (!sameHash(otpHash(r.id, input.otp), r.otp_hash)) {
      const failures = r.otp_failures + 1;
      if (failures >= MAX_FAILURES) {
        await sql.query(`UPDATE agent_registrations SET otp_failures = $2, locked_until = $3, updated_at = now() WHERE id = $1`, [r.id, failures, later(LOCK_MINUTES * 60_000)]);
        return { error: agentError(429, 'otp_locked', 'Too many wrong codes: the claim is locked for an hour') };
      }
      await sql.query(`UPDATE agent_registrations SET otp_failures = $2, updated_at = now() WHERE id = $1`, [r.id, failures]);
      return { error: agentError(401, 'otp_invalid', 'The code is not right', { remaining: MAX_FAILURES - failures }) };
    }
    const user = await ensureUser({ email: r.email }, sql);
    await sql.query(`UPDATE agent_registrations SET status = 'claimed', user_id = $2, claimed_at = now(), otp_hash = NULL, updated_at = now() WHERE id = $1`, [r.id, user.id]);
    if (r.registration_type === 'anonymous') {
      await sql.query(`UPDATE agent_credentials SET scopes = $2 WHERE registration_id = $1 AND kind = 'api_key' AND revoked_at IS NULL`, [r.id, r.post_claim_scopes]);
      return { result: { registration_id: r.id, status: 'claimed' } };
    }
    const jti = newId('atk');
    const expires = later(ACCESS_TOKEN_TTL_SECONDS * 1000);
    const token = await signAgentToken(tokenKey, { sub: user.id, jti, scope: r.post_claim_scopes.join(' '), act: { iss: EMAIL_ACT_ISSUER, sub: r.id } }, expires);
    await sql.query(`INSERT INTO agent_credentials (id, registration_id, kind, token_hash, scopes, expires_at) VALUES ($1, $2, 'access_token', $3, $4, $5)`, [jti, r.id, sha256(jti), r.post_claim_scopes, expires]);
    return { result: { registration_id: r.id, status: 'claimed', credential_type: 'access_token', credential: token, credential_expires: expires.toISOString(), scopes: r.post_claim_scopes } };
  });
  if ('error' in outcome) throw outcome.error;
  await services.changes.settle();
  return outcome.result;
}

