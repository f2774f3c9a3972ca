import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, TEST_ENCRYPTION_KEY, type TestService } from './helpers/service.ts';
import { smtpInbox, type Inbox } from './helpers/smtp.ts';
import { runCliToEnd } from './helpers/process.ts';

/** Sign-in for people without an identity provider: a code by e-mail, or a link from the command line. */
let svc: TestService;
let inbox: Inbox;

beforeAll(async () => {
  inbox = await smtpInbox();
  svc = await startTestService({ env: { SMTP_URL: inbox.url } });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  await inbox?.close();
});

const cookieOf = (headers: Headers) => /auth_token=([^;]+)/.exec(headers.get('set-cookie') ?? '')?.[1] ?? null;
const request = (email: string) => svc.api('POST', '/api/auth/email-code', { body: { email } });
const verify = (email: string, code: string) => svc.api('POST', '/api/auth/email-code/verify', { body: { email, code } });
const codeFor = async (email: string) => {
  for (let i = 0; i < 50 && !inbox.otpFor(email); i++) await new Promise((r) => setTimeout(r, 50));
  return inbox.otpFor(email)!;
};

describe('sign-in with an e-mailed code', () => {
  it('mails a six-digit code that signs the person in with the auth_token cookie, once', async () => {
    const sent = await request('ada@example.com');
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ sent: true, expires_at: expect.any(String) });
    const code = await codeFor('ada@example.com');
    expect(code).toMatch(/^\d{6}$/);
    const ok = await verify('ada@example.com', code);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ user_id: expect.any(String), email: 'ada@example.com' });
    const token = cookieOf(ok.headers)!;
    expect(ok.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    // The cookie is a session the dashboard routes accept.
    const me = await svc.api('GET', '/api/auth/session', { headers: { cookie: `auth_token=${token}` } });
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).toContain('ada@example.com');
    // Used once.
    expect((await verify('ada@example.com', code)).body.code).toBe('code_expired');
  });

  it('counts wrong codes: four say how many tries are left, the fifth locks the code', async () => {
    await request('bo@example.com');
    const code = await codeFor('bo@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let left = 4; left >= 1; left--) {
      const r = await verify('bo@example.com', wrong);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: 'code_invalid', remaining: left });
    }
    expect((await verify('bo@example.com', wrong)).body.code).toBe('code_locked');
    // Even the right code no longer works.
    expect((await verify('bo@example.com', code)).body.code).toBe('code_locked');
  });

  it('refuses an expired code, malformed input, and too many codes to one address', async () => {
    await request('cy@example.com');
    const code = await codeFor('cy@example.com');
    await svc.services.db.pool.query(`UPDATE signin_codes SET expires_at = now() - interval '1 second' WHERE lower(email) = 'cy@example.com'`);
    expect((await verify('cy@example.com', code)).body).toMatchObject({ code: 'code_expired', action: expect.stringContaining('email-code') });
    expect((await verify('cy@example.com', '12345')).status).toBe(400);
    expect((await svc.api('POST', '/api/auth/email-code', { body: { email: 'not an address' } })).status).toBe(400);
    for (let i = 0; i < 4; i++) expect((await request('cy@example.com')).status).toBe(202);
    const sixth = await request('cy@example.com');
    expect(sixth.status).toBe(429);
  });
});

describe('sign-in methods', () => {
  it('says the e-mailed code is on and OpenID is off until OIDC_CLIENT_ID is set', async () => {
    expect((await svc.api('GET', '/api/auth/methods')).body).toEqual({ email_code: true, email_delivery: 'smtp', openid: false, openid_issuer: null, openid_login: null });
  });

  it('says when codes go to the outbox because no mail server is set up, so the sign-in page can say where to find them (walkthrough 46)', async () => {
    const bare = await startTestService();
    try {
      expect((await bare.api('GET', '/api/auth/methods')).body).toMatchObject({ email_code: true, email_delivery: 'outbox' });
    } finally {
      await bare.stop();
    }
  });
});

describe('sign-in link from the command line', () => {
  it('prints a one-time URL that sets the cookie and opens the workspace', async () => {
    const out = await runCliToEnd(['login', '--link', '--email', 'dee@example.com'], { DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.dataDir, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, BASE_URL: svc.url });
    expect(out.code).toBe(0);
    const url = out.stdout.trim();
    expect(url).toMatch(/\/api\/auth\/link\?token=sil_/);
    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/app');
    expect(cookieOf(first.headers)).toBeTruthy();
    const again = await fetch(url, { redirect: 'manual' });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { code: string }).code).toBe('link_expired');
  });
});
