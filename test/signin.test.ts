import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Provider from 'oidc-provider';
import { startTestService, type TestService } from './helpers/service.ts';
import { freePort } from './setup/global.ts';

/** A second oidc-provider stands in for Google: the upstream identity provider. */
let svc: TestService;
let upstream: Provider;
let server: http.Server;
let issuer: string;

beforeAll(async () => {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  svc = await startTestService({ env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'verbatim', OIDC_CLIENT_SECRET: 'upstream-secret' } });
  upstream = new Provider(issuer, {
    clients: [{ client_id: 'verbatim', client_secret: 'upstream-secret', redirect_uris: [`${svc.url}/api/auth/google/callback`], response_types: ['code'], grant_types: ['authorization_code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, i) => `/interaction/${i.uid}` },
    cookies: { keys: ['upstream-test-key'] },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id, email: `${id}@example.com`, email_verified: id !== 'unverified', name: 'Alice Upstream' }) };
    },
  });
  server = http.createServer(upstream.callback());
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
});
afterAll(async () => {
  await svc?.stop();
  server?.close();
});

function cookies(res: Response, jar: Map<string, string>) {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

async function signIn(account: string, returnTo = '/api/auth/session') {
  const ours = new Map<string, string>();
  const theirs = new Map<string, string>();
  const start = await fetch(`${svc.url}/api/auth/google/login?return_to=${encodeURIComponent(returnTo)}`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  cookies(start, ours);
  const auth = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  const uid = auth.headers.get('location')!.split('/').pop()!;
  const interaction = (await upstream.Interaction.find(uid))!;
  const grant = new upstream.Grant({ accountId: account, clientId: 'verbatim' });
  grant.addOIDCScope('openid email profile');
  interaction.result = { login: { accountId: account }, consent: { grantId: await grant.save() } };
  await interaction.save(600);
  const resumed = await fetch(new URL(interaction.returnTo, issuer), { redirect: 'manual', headers: { cookie: cookies(auth, theirs) } });
  const back = await fetch(resumed.headers.get('location')!, { redirect: 'manual', headers: { cookie: [...ours].map(([k, v]) => `${k}=${v}`).join('; ') } });
  return back;
}

describe('sign-in through an OpenID provider', () => {
  it('signs in, creates the person with a personal workspace, sets the HTTP-only cookie and returns', async () => {
    // The workspace's sign-in page offers the provider once it is configured.
    expect((await svc.api('GET', '/api/auth/methods')).body).toMatchObject({ openid: true, openid_login: '/api/auth/google/login' });
    const back = await signIn('alice');
    expect(back.status, await back.clone().text()).toBe(302);
    expect(back.headers.get('location')).toBe('/api/auth/session');
    const set = back.headers.getSetCookie().find((c) => c.startsWith('auth_token='))!;
    expect(set).toMatch(/HttpOnly/i);
    const token = /auth_token=([^;]+)/.exec(set)![1];
    const session = await svc.api('GET', '/api/auth/session', { headers: { cookie: `auth_token=${token}` } });
    expect(session.body.user).toMatchObject({ email: 'alice@example.com', name: 'Alice Upstream', personal_org_handle: 'alice' });
  });

  it('refuses unverified e-mail, a missing flow cookie and foreign return addresses', async () => {
    expect((await signIn('unverified')).status).toBe(401);
    const noCookie = await fetch(`${svc.url}/api/auth/google/callback?code=x&state=y`, { redirect: 'manual' });
    expect(noCookie.status).toBe(400);
    expect(((await noCookie.json()) as { code: string }).code).toBe('sign_in_state_missing');
    expect((await signIn('bob', 'https://evil.example.com/')).headers.get('location')).toBe('/');
    expect((await signIn('carol', '//evil.example.com')).headers.get('location')).toBe('/');
  });

  it('explains when sign-in is not configured, and limits sign-in starts to 10 a minute per IP', async () => {
    const bare = await startTestService();
    try {
      const res = await bare.api('GET', '/api/auth/google/login');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'sign_in_unconfigured', action: expect.stringContaining('OIDC_CLIENT_ID') });
    } finally {
      await bare.stop();
    }
    await svc.services.db.pool.query('DELETE FROM rate_limit_hits');
    for (let i = 0; i < 10; i++) expect((await fetch(`${svc.url}/api/auth/google/login`, { redirect: 'manual' })).status).toBe(302);
    expect((await fetch(`${svc.url}/api/auth/google/login`, { redirect: 'manual' })).status).toBe(429);
  });
});

describe('consent without a signed-in person', () => {
  it('sends the browser to sign-in and back to the consent page', async () => {
    const reg = await svc.api('POST', '/api/oauth/register', { body: { client_name: 'Needs sign-in', redirect_uris: ['http://127.0.0.1:9991/cb'], token_endpoint_auth_method: 'none' } });
    const url = new URL(`${svc.url}/api/oauth/authorize`);
    url.search = new URLSearchParams({ client_id: reg.body.client_id, response_type: 'code', redirect_uri: 'http://127.0.0.1:9991/cb', scope: 'openid agent:read', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }).toString();
    const first = await fetch(url, { redirect: 'manual' });
    const interaction = first.headers.get('location')!;
    const page = await fetch(new URL(interaction, svc.url), { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`/api/auth/google/login?return_to=${encodeURIComponent(interaction)}`);
  });
});
