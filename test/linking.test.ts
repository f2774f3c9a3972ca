import http from 'node:http';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { freePort } from './setup/global.ts';

/** A code host and a tracker on loopback, with the OAuth and account endpoints linking uses. */
let svc: TestService;
let server: http.Server;
let base: string;
const codes = new Map<string, { challenge: string; who: string }>();

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, base);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      if (url.pathname === '/authorize') {
        const code = `code-${codes.size}`;
        codes.set(code, { challenge: url.searchParams.get('code_challenge')!, who: url.searchParams.get('login_hint') ?? 'octocat' });
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state')!);
        return void res.writeHead(302, { location: back.href }).end();
      }
      if (url.pathname === '/token') {
        const form = new URLSearchParams(body);
        const entry = codes.get(form.get('code')!);
        const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
        if (!entry || entry.challenge !== challenge) return json(400, { error: 'invalid_grant' });
        return json(200, { access_token: `token-for-${entry.who}`, token_type: 'bearer' });
      }
      const who = (req.headers.authorization ?? '').replace('Bearer token-for-', '');
      if (url.pathname === '/user') return json(200, { id: who === 'octocat' ? 583231 : 42, login: who });
      if (url.pathname === '/graphql') return json(200, { data: { viewer: { id: `lin-${who}`, name: who, email: `${who}@tracker.example` } } });
      json(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const env: Record<string, string> = {};
  for (const p of ['CODEHOST', 'TRACKER']) Object.assign(env, { [`${p}_CLIENT_ID`]: `${p.toLowerCase()}-app`, [`${p}_CLIENT_SECRET`]: 's', [`${p}_AUTHORIZE_URL`]: `${base}/authorize`, [`${p}_TOKEN_URL`]: `${base}/token`, [`${p}_API_URL`]: base });
  svc = await startTestService({ env });
});
afterAll(async () => {
  await svc?.stop();
  server?.close();
});

async function link(provider: string, token: string, hint = 'octocat') {
  const start = await fetch(`${svc.url}/api/auth/${provider}/login?return_to=/settings`, { redirect: 'manual', headers: { cookie: `auth_token=${token}` } });
  expect(start.status).toBe(302);
  const flow = /verbatim_link=[^;]+/.exec(start.headers.get('set-cookie') ?? '')![0];
  const auth = new URL(start.headers.get('location')!);
  auth.searchParams.set('login_hint', hint);
  const provider302 = await fetch(auth, { redirect: 'manual' });
  return fetch(provider302.headers.get('location')!, { redirect: 'manual', headers: { cookie: flow } });
}

describe('linking code-host and tracker identities', () => {
  it('links both to the signed-in person, keeps the token sealed, and shows them on the profile', async () => {
    const me = await svc.login('linker@example.com');
    const code = await link('codehost', me.token);
    expect(code.status).toBe(302);
    expect(code.headers.get('location')).toBe('/settings');
    expect((await link('tracker', me.token)).status).toBe(302);
    const profile = await svc.api('GET', '/api/user/profile', { token: me.token });
    expect(profile.body.profile.identities).toEqual([
      { provider: 'codehost', login: 'octocat', linked_at: expect.any(String) },
      { provider: 'tracker', login: 'octocat@tracker.example', linked_at: expect.any(String) },
    ]);
    const { rows: rows } = await svc.services.db.pool.query(`SELECT token_ciphertext FROM user_identities`);
    expect(JSON.stringify(rows)).not.toContain('token-for-octocat');
  });

  it('refuses linking without a signed-in person, an account linked to someone else, and a missing flow', async () => {
    expect((await fetch(`${svc.url}/api/auth/codehost/login`, { redirect: 'manual' })).status).toBe(401);
    const other = await svc.login('other-linker@example.com');
    const taken = await link('codehost', other.token);
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { code: string }).code).toBe('identity_linked_elsewhere');
    const noFlow = await fetch(`${svc.url}/api/auth/tracker/callback?code=x&state=y`, { redirect: 'manual' });
    expect(noFlow.status).toBe(400);
  });

  it('says what is missing when linking is not configured', async () => {
    const bare = await startTestService();
    try {
      const me = await bare.login('bare@example.com');
      const res = await bare.api('GET', '/api/auth/tracker/login', { token: me.token });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'linking_unconfigured', action: expect.stringContaining('TRACKER_CLIENT_ID') });
    } finally {
      await bare.stop();
    }
  });
});
