import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENCRYPTION_KEY, startTestService, type TestService } from './helpers/service.ts';
import { runCliToEnd } from './helpers/process.ts';

let svc: TestService;
let env: Record<string, string>;
beforeAll(async () => {
  svc = await startTestService();
  env = { DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.dataDir, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
});
afterAll(() => svc?.stop());

describe('operator command line: login', () => {
  it('creates the user and personal org, printing exactly one JSON line', async () => {
    const res = await runCliToEnd(['login', '--email', 'Grace.Hopper@example.com', '--name', 'Grace', '--admin'], env);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]);
    expect(Object.keys(out).sort()).toEqual(['org_handle', 'token', 'user_id']);
    expect(out.org_handle).toBe('grace-hopper');
    expect(out.user_id).toMatch(/^usr_/);

    const bearer = await svc.api('GET', '/api/auth/session', { token: out.token });
    expect(bearer.status).toBe(200);
    expect(bearer.body.user).toMatchObject({ id: out.user_id, email: 'Grace.Hopper@example.com', name: 'Grace', is_admin: true, personal_org_handle: 'grace-hopper' });
    expect(bearer.body.memberships).toEqual([expect.objectContaining({ handle: 'grace-hopper', role: 'owner', personal: true })]);

    const cookie = await svc.api('GET', '/api/user/profile', { headers: { cookie: `auth_token=${out.token}` } });
    expect(cookie.status).toBe(200);
    expect(cookie.body.profile).toMatchObject({ id: out.user_id, personal_org_handle: 'grace-hopper' });
  });

  it('finds the same user again, case-insensitively, with a new token', async () => {
    const again = await runCliToEnd(['login', '--email', 'grace.hopper@EXAMPLE.com'], env);
    expect(again.code, again.stderr).toBe(0);
    const out = JSON.parse(again.stdout);
    const { rows: first } = await svc.services.db.pool.query<{ email: string }>(`SELECT email FROM users`);
    expect(first.filter((u) => u.email.toLowerCase() === 'grace.hopper@example.com')).toHaveLength(1);
    expect(out.org_handle).toBe('grace-hopper');
    const profile = await svc.api('PATCH', '/api/user/profile', { token: out.token, body: { name: 'Rear Admiral Hopper' } });
    expect(profile.status).toBe(200);
    expect(profile.body.profile.name).toBe('Rear Admiral Hopper');
  });

  it('gives a second person with the same mailbox name a different handle', async () => {
    const res = await runCliToEnd(['login', '--email', 'grace.hopper@other.example'], env);
    expect(JSON.parse(res.stdout).org_handle).toBe('grace-hopper-2');
  });

  it('refuses a missing or malformed e-mail with a usage message', async () => {
    const none = await runCliToEnd(['login'], env);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/--email/);
    const bad = await runCliToEnd(['login', '--email', 'not-an-address'], env);
    expect(bad.code).toBe(2);
    const unknown = await runCliToEnd(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown command/);
  });
});

describe('operator command line: configuration', () => {
  it('refuses to start on a bad variable, naming it, with nothing on stdout', async () => {
    const loud = await runCliToEnd(['start'], { ...env, LOG_LEVEL: 'loud' });
    expect(loud.code).not.toBe(0);
    expect(loud.stdout).toBe('');
    expect(loud.stderr).toContain('LOG_LEVEL: must be one of debug, info, warn, error, silent, got "loud"');
    const port = await runCliToEnd(['start'], { ...env, PORT: 'abc' });
    expect(port.code).not.toBe(0);
    expect(port.stderr).toContain('PORT: must be an integer 0-65535, got "abc"');
    const worker = await runCliToEnd(['worker'], { ...env, STORAGE: 's3' });
    expect(worker.code).not.toBe(0);
    expect(worker.stderr).toContain('S3_BUCKET: is required when STORAGE=s3');
  });
});
