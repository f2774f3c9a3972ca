import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';

let svc: TestService;
let owner: { token: string; orgHandle: string };
let provider: http.Server;
let providerUrl: string;
let seenKeys: string[] = [];
const S = () => `/api/orgs/${owner.orgHandle}/projects/research/settings`;

beforeAll(async () => {
  svc = await startTestService({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  owner = await svc.login('settings-owner@example.com');
  await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, { token: owner.token, body: { name: 'Research' } });
  // An OpenAI-compatible provider on loopback that accepts exactly one key.
  provider = http.createServer((req, res) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    seenKeys.push(key);
    if (req.url !== '/v1/models') return void res.writeHead(404).end();
    if (key !== 'sk-good-key-123456') return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"gpt-test"}]}');
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await svc?.stop();
  provider?.close();
});

describe('project settings', () => {
  it('starts empty, with a warning that says what the offline default does', async () => {
    const res = await svc.api('GET', S(), { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({});
    expect(res.body.warnings).toEqual([expect.objectContaining({ section: 'api_keys', code: 'model_key_absent', retryable: false })]);
  });

  it('encrypts secrets at rest, bound to the project, and masks them on every read', async () => {
    const secret = 'sk-live-abcdefghijklmnop1234';
    const res = await svc.api('PATCH', S(), { token: owner.token, body: { openai_api_key: secret, openai_model: 'gpt-4o-mini' } });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({ openai_api_key: '••••1234', openai_model: 'gpt-4o-mini' });
    expect(JSON.stringify(res.body)).not.toContain('abcdefghijklmnop');

    const { rows: rows } = await svc.services.db.pool.query(`SELECT * FROM project_settings WHERE key = 'openai_api_key'`);
    const row = (rows as Array<Record<string, string | null>>)[0];
    expect(row.value).toBeNull();
    expect(row.key_id).toMatch(/^[0-9a-f]{12}$/);
    expect(row.ciphertext).not.toContain('abcdefghijklmnop');
    expect(Buffer.from(row.ciphertext!, 'base64').toString('latin1')).not.toContain('abcdefghijklmnop');

    const read = await svc.api('GET', S(), { token: owner.token });
    expect(read.body.settings.openai_api_key).toBe('••••1234');
    expect(read.body.warnings).toEqual([]);

    const mcp = await svc.mcp(owner.token);
    const viaMcp = await mcp.callTool({ name: 'settings.get', arguments: { projectRef: `${owner.orgHandle}/research` } });
    expect(viaMcp.structuredContent).toEqual(read.body);
  });

  it('does not open a ciphertext moved to another project (project id is associated data)', async () => {
    await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, { token: owner.token, body: { name: 'Other' } });
    const { rows: projects } = await svc.services.db.pool.query(`SELECT id, handle FROM projects`);
    const ids = Object.fromEntries((projects as Array<{ id: string; handle: string }>).map((p) => [p.handle, p.id]));
    await svc.services.db.pool.query(
      `INSERT INTO project_settings (project_id, key, ciphertext, key_id)
       SELECT $1, key, ciphertext, key_id FROM project_settings WHERE project_id = $2 AND key = 'openai_api_key'`,
      [ids.other, ids.research],
    );
    const res = await svc.api('GET', `/api/orgs/${owner.orgHandle}/projects/other/settings`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.settings.openai_api_key).toBe('••••');
    expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'secret_unreadable', section: 'api_keys', retryable: false })]);
  });

  it('refuses non-string secrets, unknown keys and bad values, writing nothing', async () => {
    const before = await svc.api('GET', S(), { token: owner.token });
    const nonString = await svc.api('PATCH', S(), { token: owner.token, body: { openai_api_key: 12345678901, openai_model: 'other' } });
    expect(nonString.status).toBe(400);
    expect(nonString.body.error).toMatch(/^openai_api_key: .*string/);
    const unknown = await svc.api('PATCH', S(), { token: owner.token, body: { anthropic_key: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/anthropic_key/);
    const badUrl = await svc.api('PATCH', S(), { token: owner.token, body: { openai_base_url: 'ftp://example.com' } });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error).toMatch(/openai_base_url/);
    const empty = await svc.api('PATCH', S(), { token: owner.token, body: {} });
    expect(empty.status).toBe(400);
    expect((await svc.api('GET', S(), { token: owner.token })).body).toEqual(before.body);
  });

  it('removes a setting with null', async () => {
    const res = await svc.api('PATCH', S(), { token: owner.token, body: { openai_model: null } });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({ openai_api_key: '••••1234' });
  });

  it('lets only owners and admins change settings', async () => {
    const member = await svc.login('settings-member@example.com');
    await svc.api('POST', `/api/orgs/${owner.orgHandle}/members`, { token: owner.token, body: { email: 'settings-member@example.com' } });
    expect((await svc.api('GET', S(), { token: member.token })).status).toBe(200);
    const res = await svc.api('PATCH', S(), { token: member.token, body: { openai_model: 'x' } });
    expect(res.status).toBe(403);
  });

  it('validates a candidate value without storing it, optionally against the provider', async () => {
    const V = `${S()}/validate`;
    const bad = await svc.api('POST', V, { token: owner.token, body: { key: 'openai_base_url', value: 'not a url' } });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ key: 'openai_base_url', valid: false, errors: [expect.stringMatching(/openai_base_url/)] });
    const odd = await svc.api('POST', V, { token: owner.token, body: { key: 'openai_api_key', value: 'custom-provider-key-1' } });
    expect(odd.body).toMatchObject({ valid: true, errors: [], warnings: [expect.stringContaining('sk-')], live_check: null });
    expect((await svc.api('POST', V, { token: owner.token, body: { key: 'nope', value: 'x' } })).status).toBe(400);

    await svc.api('PATCH', S(), { token: owner.token, body: { openai_base_url: providerUrl } });
    seenKeys = [];
    const live = await svc.api('POST', V, { token: owner.token, body: { key: 'openai_api_key', value: 'sk-good-key-123456', live: true } });
    expect(live.body).toMatchObject({ valid: true, live_check: { ok: true, status: 200 } });
    const rejected = await svc.api('POST', V, { token: owner.token, body: { key: 'openai_api_key', value: 'sk-wrong-key-99999', live: true } });
    expect(rejected.body).toMatchObject({ valid: false, live_check: { ok: false, status: null, message: 'The provider did not accept the key at this address' } });
    expect(seenKeys).toEqual(['sk-good-key-123456', 'sk-wrong-key-99999']);
    // Nothing stored by validation.
    expect((await svc.api('GET', S(), { token: owner.token })).body.settings.openai_api_key).toBe('••••1234');
  });

  it('reports key health and records a live check of the stored key', async () => {
    const H = `${S()}/key-health`;
    const first = await svc.api('GET', H, { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.body.keys).toEqual([{ key: 'openai_api_key', configured: true, last_success_at: null, last_error_at: null, last_error: null }]);
    const failing = await svc.api('GET', `${H}?check=true`, { token: owner.token });
    expect(failing.body.keys[0]).toMatchObject({ last_error: 'The provider did not accept the key at this address', last_error_at: expect.any(String) });
    await svc.api('PATCH', S(), { token: owner.token, body: { openai_api_key: 'sk-good-key-123456' } });
    const ok = await svc.api('GET', `${H}?check=true`, { token: owner.token });
    expect(ok.body.keys[0]).toMatchObject({ configured: true, last_success_at: expect.any(String), last_error: null });
  });

  it('rate limits validation to 10 a minute per IP with SPEC headers', async () => {
    await svc.services.db.pool.query(`DELETE FROM rate_limit_hits`);
    // Windows are fixed minutes: start well inside one so the 11 requests share it.
    const into = Date.now() % 60_000;
    if (into > 50_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
    const V = `${S()}/validate`;
    let last;
    for (let i = 0; i < 10; i++) {
      last = await svc.api('POST', V, { token: owner.token, body: { key: 'openai_model', value: 'm' } });
      expect(last.status).toBe(200);
    }
    expect(last!.headers.get('ratelimit-limit')).toBe('10');
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
    expect(last!.headers.get('ratelimit-policy')).toBe('10;w=60');
    expect(last!.headers.get('ratelimit')).toMatch(/^limit=10, remaining=0, reset=\d+$/);
    expect(Number(last!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const limited = await svc.api('POST', V, { token: owner.token, body: { key: 'openai_model', value: 'm' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', retryable: true, reason: 'ip_throttle' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The key-health bucket is separate.
    expect((await svc.api('GET', `${S()}/key-health`, { token: owner.token })).status).toBe(200);
  });
});
