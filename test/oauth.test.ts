import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { decodeJwt } from 'jose';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';

let svc: TestService;
let owner: Awaited<ReturnType<typeof ownerWithProject>>;
const REDIRECT = 'http://127.0.0.1:8976/callback';
const insecure = { execute: [oidc.allowInsecureRequests] };

beforeAll(async () => {
  svc = await startTestService();
  owner = await ownerWithProject(svc, 'oauth-owner@example.com', 'Research');
});
afterAll(() => svc?.stop());

/** A browser's cookie jar, enough for the provider's interaction cookies. */
function jar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    take(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        cookies.set(pair.slice(0, i), pair.slice(i + 1));
      }
    },
  };
}

async function authorize(config: oidc.Configuration, resource: string, decision: 'approve' | 'deny' = 'approve', scope = 'openid offline_access agent:read agent:write') {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource,
    prompt: 'consent',
  });
  const browser = jar();
  const first = await fetch(url, { redirect: 'manual' });
  browser.take(first);
  if (!first.headers.get('location')) throw new Error(`authorize: ${first.status} ${await first.text()}`);
  const interaction = new URL(first.headers.get('location')!, svc.url);
  const uid = interaction.pathname.split('/').pop()!;
  const page = await fetch(interaction, { headers: { cookie: `${browser.header()}; auth_token=${owner.token}` } });
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(await page.text()).toContain('Allow <b>Test MCP client</b>');
  const details = await svc.api('GET', `/api/oauth/authorize/request?request=${uid}`, { token: owner.token });
  expect(details.body).toMatchObject({ client_name: 'Test MCP client', redirect_host: '127.0.0.1:8976', resource });
  const decided = await svc.api('POST', '/api/oauth/authorize/decision', { token: owner.token, body: { request: uid, decision } });
  const resumed = await fetch(new URL(decided.body.redirect_to, svc.url), { redirect: 'manual', headers: { cookie: browser.header() } });
  if (!resumed.headers.get('location')) throw new Error(`resume: ${resumed.status} ${(await resumed.text()).slice(0, 300)}`);
  const callback = new URL(resumed.headers.get('location')!);
  return { callback, verifier, state };
}

describe('OAuth 2.1 with dynamic registration', () => {
  it('publishes discovery documents, the JWKS and protected-resource metadata', async () => {
    const as = await svc.api('GET', '/.well-known/oauth-authorization-server');
    expect(as.body).toMatchObject({
      issuer: `${svc.url}/api/oauth`,
      registration_endpoint: `${svc.url}/api/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      agent_auth: { register_uri: `${svc.url}/agent/auth`, identity_types_supported: ['identity_assertion', 'anonymous'] },
    });
    expect((await svc.api('GET', '/.well-known/openid-configuration')).body.issuer).toBe(`${svc.url}/api/oauth`);
    // OAuth 2.1: the authorization code flow only, no implicit or hybrid response types.
    for (const doc of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/api/oauth/.well-known/openid-configuration']) {
      const { body } = await svc.api('GET', doc);
      expect(body.response_types_supported, doc).toEqual(['code']);
      expect(body.grant_types_supported, doc).toEqual(['authorization_code', 'refresh_token']);
    }
    expect((await svc.api('GET', '/.well-known/jwks.json')).body.keys[0]).not.toHaveProperty('d');
    const prm = (await svc.api('GET', '/.well-known/oauth-protected-resource/mcp')).body;
    expect(prm).toMatchObject({ resource: `${svc.url}/mcp`, bearer_methods_supported: ['header'] });
    // MCP SDK clients request exactly these, and offline_access is what asks for a refresh token.
    expect(prm.scopes_supported).toEqual(expect.arrayContaining(['agent:read', 'agent:write', 'openid', 'profile', 'email', 'offline_access']));
    const anon = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anon.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${svc.url}/.well-known/oauth-protected-resource/mcp"`);
    const refused = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer expired.or.forged' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${svc.url}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('registers a client, authorizes with PKCE and consent, and the token works on /mcp but not on REST', async () => {
    const config = await oidc.dynamicClientRegistration(new URL(`${svc.url}/api/oauth`), { client_name: 'Test MCP client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }, oidc.None(), insecure);
    const meta = config.clientMetadata();
    expect(meta.client_id).toBeTruthy();
    expect(meta.registration_access_token).toBeTruthy();
    const { callback, verifier, state } = await authorize(config, `${svc.url}/mcp`);
    expect(callback.searchParams.get('iss')).toBe(`${svc.url}/api/oauth`);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({ aud: `${svc.url}/mcp`, sub: owner.userId });
    expect(tokens.refresh_token).toBeTruthy();

    const mcp = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'projects.get', arguments: { projectRef: owner.project.project_ref } } }),
    });
    expect(mcp.status).toBe(200);
    expect(((await mcp.json()) as any).result.structuredContent.project.handle).toBe('research');
    // Bound to the MCP resource: the REST API refuses it.
    expect((await svc.api('GET', `${owner.P}`, { token: tokens.access_token })).status).toBe(401);
    expect((await fetch(`${svc.url}/mcp?access_token=${tokens.access_token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();
  });

  it('gives a client that registered the refresh_token grant a rotating refresh token without offline_access, and none to one that did not', async () => {
    const config = await oidc.dynamicClientRegistration(new URL(`${svc.url}/api/oauth`), { client_name: 'Test MCP client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' }, oidc.None(), insecure);
    const { callback, verifier, state } = await authorize(config, `${svc.url}/mcp`, 'approve', 'agent:read agent:write');
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ aud: `${svc.url}/mcp`, sub: owner.userId });
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    const codeOnly = await oidc.dynamicClientRegistration(new URL(`${svc.url}/api/oauth`), { client_name: 'Test MCP client', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], token_endpoint_auth_method: 'none' }, oidc.None(), insecure);
    const second = await authorize(codeOnly, `${svc.url}/mcp`, 'approve', 'openid offline_access agent:read');
    const noRefresh = await oidc.authorizationCodeGrant(codeOnly, second.callback, { pkceCodeVerifier: second.verifier, expectedState: second.state });
    expect(noRefresh.access_token).toBeTruthy();
    expect(noRefresh.refresh_token).toBeUndefined();
  });

  it('issues REST-bound tokens for the API resource, and refuses an unknown resource or a denial', async () => {
    const config = await oidc.dynamicClientRegistration(new URL(`${svc.url}/api/oauth`), { client_name: 'Test MCP client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }, oidc.None(), insecure);
    const { callback, verifier, state } = await authorize(config, svc.url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect((await svc.api('GET', owner.P, { token: tokens.access_token })).status).toBe(200);
    expect((await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, { token: tokens.access_token, body: { name: 'Via OAuth' } })).status).toBe(201);
    const denied = await authorize(config, svc.url, 'deny');
    expect(denied.callback.searchParams.get('error')).toBe('access_denied');
  });

  it('manages a registration with its access token (RFC 7592) and refuses bad metadata', async () => {
    const reg = await svc.api('POST', '/api/oauth/register', { body: { client_name: 'Managed', redirect_uris: ['http://127.0.0.1:9999/cb'], token_endpoint_auth_method: 'none' } });
    expect(reg.status).toBe(201);
    for (const k of ['client_id', 'client_name', 'redirect_uris', 'grant_types', 'response_types', 'scope', 'token_endpoint_auth_method', 'client_id_issued_at', 'registration_access_token', 'registration_client_uri', 'client_secret_expires_at']) expect(reg.body, k).toHaveProperty(k);
    // A public client has no secret, so nothing to expire: 0 (SPEC 2.14 requires the field).
    expect(reg.body.client_secret_expires_at).toBe(0);
    expect(reg.body).not.toHaveProperty('client_secret');
    expect(reg.body.response_types).toEqual(['code']);
    const read = await fetch(reg.body.registration_client_uri, { headers: { authorization: `Bearer ${reg.body.registration_access_token}` } });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ client_id: reg.body.client_id, client_secret_expires_at: 0, token_endpoint_auth_method: 'none' });
    const del = await fetch(reg.body.registration_client_uri, { method: 'DELETE', headers: { authorization: `Bearer ${reg.body.registration_access_token}` } });
    expect(del.status).toBe(204);
    const confidential = await svc.api('POST', '/api/oauth/register', { body: { client_name: 'Server app', redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'client_secret_basic' } });
    expect(confidential.status).toBe(201);
    expect(confidential.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', client_secret: expect.any(String), client_secret_expires_at: 0 });
    const confidentialRead = await fetch(confidential.body.registration_client_uri, { headers: { authorization: `Bearer ${confidential.body.registration_access_token}` } });
    expect(await confidentialRead.json()).toMatchObject({ client_secret: confidential.body.client_secret, client_secret_expires_at: 0 });
    // The implicit flow is gone: asking to register for it is refused.
    const implicit = await svc.api('POST', '/api/oauth/register', { body: { redirect_uris: ['https://app.example.com/cb'], response_types: ['id_token'], grant_types: ['implicit'], token_endpoint_auth_method: 'none' } });
    expect(implicit.status).toBe(400);
    const bad = await svc.api('POST', '/api/oauth/register', { body: { redirect_uris: ['not a uri'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/invalid_redirect_uri|invalid_client_metadata/);
  });
});

describe('OAuth rate limits (SPEC 8)', () => {
  it('limits anonymous token requests per IP and registration management per client', async () => {
    await svc.services.db.pool.query('DELETE FROM rate_limit_hits');
    const into = Date.now() % 60_000;
    if (into > 45_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${svc.url}/api/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=nope' });
      expect(res.status).not.toBe(429);
    }
    const limited = await fetch(`${svc.url}/api/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=nope' });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { code: string }).code).toBe('rate_limited');

    const reg = await svc.api('POST', '/api/oauth/register', { body: { client_name: 'Busy', redirect_uris: ['http://127.0.0.1:9998/cb'], token_endpoint_auth_method: 'none' } });
    const read = () => fetch(reg.body.registration_client_uri, { headers: { authorization: `Bearer ${reg.body.registration_access_token}` } });
    for (let i = 0; i < 20; i++) expect((await read()).status).toBe(200);
    const twentyFirst = await read();
    expect(twentyFirst.status).toBe(429);
    expect(((await twentyFirst.json()) as { reason: string }).reason).toBe('client_throttle');
  });
});

describe('native clients and origins', () => {
  it('accepts any loopback port for a native client\'s redirect URI', async () => {
    const reg = await svc.api('POST', '/api/oauth/register', { body: { client_name: 'CLI', application_type: 'native', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' } });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    const url = new URL(`${svc.url}/api/oauth/authorize`);
    url.search = new URLSearchParams({ client_id: reg.body.client_id, response_type: 'code', redirect_uri: 'http://127.0.0.1:53117/callback', scope: 'openid agent:read', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/api\/oauth\/interaction\//);
    const noPkce = new URL(url);
    noPkce.searchParams.delete('code_challenge');
    noPkce.searchParams.delete('code_challenge_method');
    const refused = await fetch(noPkce, { redirect: 'manual' });
    expect(refused.headers.get('location') ?? '').toMatch(/error=invalid_request/);
  });

  it('refuses /mcp calls from a foreign browser origin', async () => {
    const res = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { origin: 'https://evil.example.com', authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(res.status).toBe(403);
    const same = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { origin: new URL(svc.url).origin, authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(same.status).toBe(200);
  });
});
