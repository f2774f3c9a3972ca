import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENCRYPTION_KEY, startTestService, type TestService } from './helpers/service.ts';
import { runCliToEnd } from './helpers/process.ts';
import { smtpInbox, type Inbox } from './helpers/smtp.ts';
import { readOutbox } from '../core/mailer.ts';

let svc: TestService;
let inbox: Inbox;
let env: Record<string, string>;
let inboxOpen = true;

beforeAll(async () => {
  inbox = await smtpInbox();
  // Behind a trusted proxy each test speaks from its own client address, so rate-limit buckets never mix.
  svc = await startTestService({ env: { SMTP_URL: inbox.url, TRUST_PROXY: 'true' } });
  env = { DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.dataDir, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
});
afterAll(async () => {
  await svc?.stop();
  if (inboxOpen) await inbox?.close();
});

const emailTest = (token: string, ip: string, body: Record<string, unknown> = {}) =>
  svc.api('POST', '/api/admin/email/test', { token, body, headers: { 'x-forwarded-for': ip } });

/** A session re-reads its admin flag every few seconds; wait for the change to show. */
async function untilStatus(token: string, status: number) {
  const end = Date.now() + 10_000;
  for (;;) {
    const res = await svc.api('GET', '/api/admin/users?admins_only=true', { token });
    if (res.status === status) return res;
    if (Date.now() > end) throw new Error(`admin users stayed ${res.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function delivered(predicate: (raw: string) => boolean) {
  const end = Date.now() + 5_000;
  while (Date.now() < end) {
    const m = inbox.messages.find((x) => predicate(x.raw));
    if (m) return m;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no message arrived');
}

describe('operators: the admin flag from the command line', () => {
  it('grant gives access to admin routes, revoke takes it away', async () => {
    const ops = await svc.login('ops@example.com', { name: 'Ops' });
    const denied = await emailTest(ops.token, '10.0.0.1');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('admin_required');

    const grant = await runCliToEnd(['admin', 'grant', '--email', 'OPS@example.com'], env);
    expect(grant.code, grant.stderr).toBe(0);
    expect(JSON.parse(grant.stdout)).toEqual({ user_id: ops.userId, email: 'ops@example.com', name: 'Ops', is_admin: true });
    const users = await untilStatus(ops.token, 200);
    expect(users.body.users).toEqual([expect.objectContaining({ id: ops.userId, email: 'ops@example.com', is_admin: true })]);

    const sent = await emailTest(ops.token, '10.0.0.1');
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({ success: true, transport: 'smtp', message_id: expect.stringMatching(/^eml_/), to: 'ops@example.com' });
    const mail = await delivered((raw) => raw.includes(sent.body.message_id));
    expect(mail.to).toEqual(['ops@example.com']);
    expect(mail.raw).toMatch(/Subject: Verbatim test e-mail/);

    const list = await runCliToEnd(['admin', 'list'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).admins).toEqual([{ user_id: ops.userId, email: 'ops@example.com', name: 'Ops', is_admin: true }]);

    const revoke = await runCliToEnd(['admin', 'revoke', '--email', 'ops@example.com'], env);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(JSON.parse(revoke.stdout).is_admin).toBe(false);
    await untilStatus(ops.token, 403);
    expect((await emailTest(ops.token, '10.0.0.1')).status).toBe(403);
    expect(JSON.parse((await runCliToEnd(['admin', 'list'], env)).stdout).admins).toEqual([]);
  });

  it('refuses unknown users and bad usage, and the help lists the commands', async () => {
    const unknown = await runCliToEnd(['admin', 'grant', '--email', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No user with e-mail nobody@example.com/);
    expect((await runCliToEnd(['admin'], env)).code).toBe(2);
    expect((await runCliToEnd(['admin', 'grant'], env)).code).toBe(2);
    expect((await runCliToEnd(['admin', 'promote', '--email', 'ops@example.com'], env)).code).toBe(2);
    const help = await runCliToEnd(['help'], env);
    expect(help.stdout).toMatch(/admin grant --email/);
    expect(help.stdout).toMatch(/admin revoke --email/);
  });
});

describe('admin e-mail delivery test', () => {
  it('sends to another address when asked and validates it', async () => {
    const root = await svc.login('root@example.com', { admin: true });
    const sent = await emailTest(root.token, '10.0.0.2', { to: 'someone@example.org' });
    expect(sent.status).toBe(200);
    expect(sent.body.to).toBe('someone@example.org');
    expect((await delivered((raw) => raw.includes(sent.body.message_id))).to).toEqual(['someone@example.org']);
    expect((await emailTest(root.token, '10.0.0.2', { to: 'not-an-address' })).status).toBe(400);
  });

  it('allows 6 a minute per IP: the 7th is 429, another address is unaffected', async () => {
    const root = await svc.login('root@example.com', { admin: true });
    // The buckets are fixed 60-second windows: start well inside one.
    const into = Date.now() % 60_000;
    if (into > 45_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await emailTest(root.token, '10.0.0.3')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const limited = await emailTest(root.token, '10.0.0.3');
    expect(limited.body).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.headers.get('ratelimit-limit')).toBe('6');
    expect((await emailTest(root.token, '10.0.0.4')).status).toBe(200);
  }, 60_000);

  it('writes to the outbox when no SMTP server is configured', async () => {
    const local = await startTestService();
    try {
      const root = await local.login('root@example.com', { admin: true });
      const sent = await local.api('POST', '/api/admin/email/test', { token: root.token, body: {} });
      expect(sent.body).toMatchObject({ success: true, transport: 'outbox', to: 'root@example.com' });
      const outbox = await readOutbox(local.dataDir);
      expect(outbox).toEqual([expect.objectContaining({ to: 'root@example.com', subject: `Verbatim test e-mail (${sent.body.message_id})` })]);
    } finally {
      await local.stop();
    }
  });

  it('reports an unreachable SMTP server as 502 send_failed with an action', async () => {
    const root = await svc.login('root@example.com', { admin: true });
    await inbox.close();
    inboxOpen = false;
    const failed = await emailTest(root.token, '10.0.0.5');
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'send_failed', retryable: true, action: expect.stringContaining('SMTP_URL') });
  });
});
