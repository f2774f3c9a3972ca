import express, { type Router, type Response } from 'express';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Services } from '../core/context.ts';
import { AppError, RateLimitedError, ValidationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { routeLimiter } from '../core/rate-limit.ts';
import { inTransaction } from '../core/tx.ts';
import { jsonBody } from '../rest/json-body.ts';
import { ensureUser } from '../tools/account/users.ts';
import { newOtp, otpHash, sameHash, sha256 } from './agent/tokens.ts';
import { USER_TOKEN_TTL_SECONDS } from './user-tokens.ts';

export const CODE_MINUTES = 10;
export const MAX_FAILURES = 5;
const MAILS_PER_HOUR = 5;

const Email = z.email().max(320).transform((e) => e.trim());
const RequestBody = z.object({ email: Email });
const VerifyBody = z.object({ email: Email, code: z.string().regex(/^\d{6}$/, 'six digits') });

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body);
  if (!r.success) throw new ValidationError(r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  return r.data;
}

/** Sets the workspace session cookie for `email` (creating the person if new). */
async function signIn(services: Services, res: Response, email: string): Promise<{ user_id: string; email: string }> {
  const user = await inTransaction(services.db.pool, (sql) => ensureUser({ email }, sql));
  const { token } = await services.tokens.issue(user.id, 'sign-in');
  res.cookie('auth_token', token, { httpOnly: true, sameSite: 'lax', secure: services.baseUrl().startsWith('https:'), maxAge: USER_TOKEN_TTL_SECONDS * 1000, path: '/' });
  return { user_id: user.id, email: user.email };
}

/** A one-time sign-in link for the command line (`login --link`); valid ten minutes, once. */
export async function createSignInLink(services: Services, email: string): Promise<string> {
  const secret = `sil_${randomBytes(24).toString('base64url')}`;
  await services.db.pool.query(
    `INSERT INTO signin_codes (id, kind, email, secret_hash, expires_at) VALUES ($1, 'link', $2, $3, now() + make_interval(mins => $4))`,
    [newId('sic'), email, sha256(secret), CODE_MINUTES],
  );
  return `${services.baseUrl()}/api/auth/link?token=${encodeURIComponent(secret)}`;
}

/**
 * Sign-in for people, beside OpenID: `POST /api/auth/email-code` mails a six-digit code (SMTP,
 * or the outbox without it), `POST /api/auth/email-code/verify` exchanges it for the
 * `auth_token` cookie. The same rules as the agent claim code: ten minutes, five wrong tries,
 * rate-limited per address and per client.
 */
export function emailCodeRoutes(services: Services): Router {
  const router = express.Router();
  const { pool } = services.db;
  const json = jsonBody('4kb');

  router.post('/api/auth/email-code', routeLimiter(pool, 'auth.email_code', 10), json, async (req, res, next) => {
    try {
      const { email } = parse(RequestBody, req.body);
      const sent = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM signin_codes WHERE kind = 'email_code' AND lower(email) = lower($1) AND created_at > now() - interval '1 hour'`, [email]);
      if (sent.rows[0].n >= MAILS_PER_HOUR) throw new RateLimitedError('Too many sign-in codes for this address; try again within the hour', { code: 'rate_limited', details: { reason: 'email_throttle' } });
      const id = newId('sic');
      const code = newOtp();
      const expires = new Date(Date.now() + CODE_MINUTES * 60_000);
      try {
        await services.mailer.send({
          to: email,
          subject: `Your Verbatim sign-in code: ${code}`,
          text: [`Your sign-in code is ${code}. It expires in ${CODE_MINUTES} minutes.`, '', 'If you did not ask to sign in, ignore this e-mail: nothing happens without the code.'].join('\n'),
        });
      } catch {
        throw new AppError(502, 'The sign-in e-mail could not be sent', { code: 'send_failed', retryable: true, action: 'Try again shortly; the operator can check SMTP_URL' });
      }
      // A new code replaces any earlier one for the address.
      await pool.query(`UPDATE signin_codes SET used_at = now() WHERE kind = 'email_code' AND lower(email) = lower($1) AND used_at IS NULL`, [email]);
      await pool.query(`INSERT INTO signin_codes (id, kind, email, secret_hash, expires_at) VALUES ($1, 'email_code', $2, $3, $4)`, [id, email, otpHash(id, code), expires]);
      res.status(202).json({ sent: true, expires_at: expires.toISOString() });
    } catch (err) {
      next(err);
    }
  });

  router.post('/api/auth/email-code/verify', routeLimiter(pool, 'auth.email_code.verify', 20), json, async (req, res, next) => {
    try {
      const { email, code } = parse(VerifyBody, req.body);
      // The row is locked so that concurrent guesses count one by one.
      const outcome = await inTransaction(pool, async (sql) => {
        const { rows } = await sql.query<{ id: string; secret_hash: string; failures: number; expires_at: Date }>(
          `SELECT id, secret_hash, failures, expires_at FROM signin_codes WHERE kind = 'email_code' AND lower(email) = lower($1) AND used_at IS NULL ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
          [email],
        );
        const row = rows[0];
        if (!row || new Date(row.expires_at).getTime() < Date.now()) return new AppError(400, 'The code has expired; ask for a new one', { code: 'code_expired', action: 'POST /api/auth/email-code' });
        if (row.failures >= MAX_FAILURES) return new AppError(429, 'Too many wrong codes; ask for a new one', { code: 'code_locked', action: 'POST /api/auth/email-code' });
        if (!sameHash(otpHash(row.id, code), row.secret_hash)) {
          await sql.query(`UPDATE signin_codes SET failures = failures + 1 WHERE id = $1`, [row.id]);
          const left = MAX_FAILURES - row.failures - 1;
          return left > 0
            ? new AppError(401, `The code is not right (${left} ${left === 1 ? 'try' : 'tries'} left)`, { code: 'code_invalid', details: { remaining: left } })
            : new AppError(429, 'Too many wrong codes; ask for a new one', { code: 'code_locked', action: 'POST /api/auth/email-code' });
        }
        await sql.query(`UPDATE signin_codes SET used_at = now() WHERE id = $1`, [row.id]);
        return null;
      });
      if (outcome) throw outcome;
      res.json(await signIn(services, res, email));
    } catch (err) {
      next(err);
    }
  });

  // Which ways to sign in this server offers, for the workspace's sign-in page.
  router.get('/api/auth/methods', (_req, res) => {
    const openid = !!services.config.signIn.clientId;
    // With no SMTP_URL, codes go to the outbox in DATA_DIR, which only the operator's CLI reads: the page says so.
    res.json({ email_code: true, email_delivery: services.mailer.kind, openid, openid_issuer: openid ? new URL(services.config.signIn.issuer).host : null, openid_login: openid ? '/api/auth/google/login' : null });
  });

  router.get('/api/auth/link', routeLimiter(pool, 'auth.link', 20), async (req, res, next) => {
    try {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const { rows } = await pool.query<{ email: string }>(
        `UPDATE signin_codes SET used_at = now() WHERE kind = 'link' AND secret_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING email`,
        [sha256(token)],
      );
      if (!rows[0]) throw new AppError(400, 'This sign-in link was used already or has expired', { code: 'link_expired', action: 'Run npm run cli -- login --link again' });
      await signIn(services, res, rows[0].email);
      res.redirect(302, '/app');
    } catch (err) {
      next(err);
    }
  });
  return router;
}
