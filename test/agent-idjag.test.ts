import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair, decodeJwt } from 'jose';
import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';

const ISSUER = 'https://agents.example.com';
let svc: TestService;
let keys: Awaited<ReturnType<typeof generateKeyPair>>;
let other: Awaited<ReturnType<typeof generateKeyPair>>;
let jwksServer: http.Server;
let admin: { token: string };

beforeAll(async () => {
  svc = await startTestService();
  keys = await generateKeyPair('ES256');
  other = await generateKeyPair('ES256');
  admin = await svc.login('ops@example.com', { admin: true });
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' };
  const added = await svc.api('POST', '/api/admin/agent-providers', { token: admin.token, body: { issuer: ISSUER, name: 'Example agents', jwks: { keys: [jwk] } } });
  expect(added.status).toBe(201);
  // A second provider publishes its keys at a URL, as real providers do.
  jwksServer = http.createServer(async (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [{ ...(await exportJWK(other.publicKey)), kid: 'r1', alg: 'ES256' }] })));
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  const uri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
  expect((await svc.api('POST', '/api/admin/agent-providers', { token: admin.token, body: { issuer: 'https://remote.example.com', name: 'Remote', jwks_uri: uri } })).status).toBe(201);
});
afterAll(async () => {
  await svc?.stop();
  jwksServer?.close();
});
beforeEach(() => svc.services.db.pool.query('DELETE FROM rate_limit_hits'));

function idJag(over: { typ?: string; aud?: string; iss?: string; exp?: number; key?: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']; kid?: string; email_verified?: boolean; jti?: string; sub?: string } = {}) {
  return new SignJWT({ email: 'vouched@example.com', email_verified: over.email_verified ?? true })
    .setProtectedHeader({ alg: 'ES256', typ: over.typ ?? 'oauth-id-jag+jwt', kid: over.kid ?? 'k1' })
    .setIssuer(over.iss ?? ISSUER)
    .setAudience(over.aud ?? `${svc.url}/`)
    .setSubject(over.sub ?? 'agent-42')
    .setJti(over.jti ?? randomUUID())
    .setIssuedAt()
    .setExpirationTime(over.exp ?? Math.floor(Date.now() / 1000) + 300)
    .sign(over.key ?? keys.privateKey);
}

const register = async (assertion: string, scopes?: string[]) =>
  svc.api('POST', '/agent/auth', { body: { type: 'identity_assertion', assertion_type: 'urn:ietf:params:oauth:token-type:id-jag', assertion, requested_credential_type: 'access_token', ...(scopes ? { scopes } : {}) } });

describe('ID-JAG registration', () => {
  it('issues read access by default and write access on request, with act naming provider and agent', async () => {
    const owner = await ownerWithProject(svc, 'vouched@example.com', 'Vouched');
    const read = await register(await idJag());
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toMatchObject({ registration_type: 'agent-provider', credential_type: 'access_token', scopes: ['agent:read'] });
    expect(decodeJwt(read.body.credential).act).toEqual({ iss: ISSUER, sub: 'agent-42' });
    expect((await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, { token: read.body.credential, body: { name: 'x' } })).body.code).toBe('agent_write_not_permitted');
    const write = await register(await idJag(), ['agent:write']);
    expect(write.body.scopes).toEqual(['agent:read', 'agent:write']);
    expect((await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, { token: write.body.credential, body: { name: 'Made by an agent' } })).status).toBe(201);
    const remote = await register(await idJag({ iss: 'https://remote.example.com', key: other.privateKey, kid: 'r1' }));
    expect(remote.status, JSON.stringify(remote.body)).toBe(200);
  });

  it('refuses a bad typ, audience, issuer, expiry, signature, unverified email and a replayed jti', async () => {
    expect((await register(await idJag({ typ: 'JWT' }))).body.code).toBe('invalid_request');
    expect((await register(await idJag({ aud: 'https://elsewhere.example.com/' }))).body.code).toBe('audience_mismatch');
    expect((await register(await idJag({ iss: 'https://stranger.example.com' }))).body.code).toBe('issuer_not_enabled');
    expect((await register(await idJag({ exp: Math.floor(Date.now() / 1000) - 120 }))).body.code).toBe('credential_expired');
    expect((await register(await idJag({ key: other.privateKey }))).body.code).toBe('invalid_signature');
    expect((await register(await idJag({ email_verified: false }))).body.code).toBe('invalid_request');
    expect((await register(await idJag({ exp: Math.floor(Date.now() / 1000) + 3600 }))).body.code).toBe('invalid_request');
    const once = await idJag({ jti: 'same-jti' });
    expect((await register(once)).status).toBe(200);
    expect((await register(once)).body.code).toBe('invalid_request');
  });
});

describe('revocation by logout token', () => {
  const logout = (over: { typ?: string; jti?: string; sub?: string; events?: Record<string, unknown> } = {}) =>
    new SignJWT({ events: over.events ?? { 'urn:service:agent-auth:event:identity-assertion-revoked': {} } })
      .setProtectedHeader({ alg: 'ES256', typ: over.typ ?? 'logout+jwt', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(`${svc.url}/`)
      .setSubject(over.sub ?? 'agent-7')
      .setJti(over.jti ?? randomUUID())
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 300)
      .sign(keys.privateKey);

  it('revokes the agent\'s credentials in every accepted content type and refuses replays', async () => {
    const reg = await register(await idJag({ sub: 'agent-7' }));
    const token = reg.body.credential;
    expect((await svc.api('GET', '/api/auth/session', { token })).status).toBe(200);
    const bad = await fetch(`${svc.url}/agent/auth/revoke`, { method: 'POST', headers: { 'content-type': 'application/logout+jwt' }, body: await logout({ typ: 'JWT' }) });
    expect(bad.status).toBe(400);
    const noEvent = await fetch(`${svc.url}/agent/auth/revoke`, { method: 'POST', headers: { 'content-type': 'application/logout+jwt' }, body: await logout({ events: { other: {} } }) });
    expect(noEvent.status).toBe(400);
    const lt = await logout({ jti: 'logout-1' });
    const res = await fetch(`${svc.url}/agent/auth/revoke`, { method: 'POST', headers: { 'content-type': 'application/logout+jwt' }, body: lt });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, revoked_credentials: 1 });
    const after = await svc.api('GET', '/api/auth/session', { token });
    expect(after.status).toBe(401);
    const replay = await fetch(`${svc.url}/agent/auth/revoke`, { method: 'POST', headers: { 'content-type': 'application/logout+jwt' }, body: lt });
    expect(replay.status).toBe(409);
    expect(((await replay.json()) as { code: string }).code).toBe('replay_detected');
    const form = await fetch(`${svc.url}/agent/auth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ logout_token: await logout() }) });
    expect(form.status).toBe(200);
    const json = await svc.api('POST', '/agent/auth/revoke', { body: { logout_token: await logout({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} } }) } });
    expect(json.status).toBe(200);
  });

  it('keeps the trust list for operators only', async () => {
    const user = await svc.login('not-ops@example.com');
    expect((await svc.api('GET', '/api/admin/agent-providers', { token: user.token })).status).toBe(403);
    const list = await svc.api('GET', '/api/admin/agent-providers', { token: admin.token });
    expect(list.body.providers.map((p: any) => p.issuer).sort()).toEqual([ISSUER, 'https://remote.example.com']);
    const dup = await svc.api('POST', '/api/admin/agent-providers', { token: admin.token, body: { issuer: ISSUER, name: 'again', jwks_uri: 'https://x.example.com/jwks' } });
    expect(dup.status).toBe(409);
    const both = await svc.api('POST', '/api/admin/agent-providers', { token: admin.token, body: { issuer: 'https://b.example.com', name: 'b' } });
    expect(both.status).toBe(400);
  });
});
