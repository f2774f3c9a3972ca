import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';
import { smtpInbox, type Inbox } from './helpers/smtp.ts';
import { runCliToEnd } from './helpers/process.ts';

let svc: TestService;
let inbox: Inbox;
let owner: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  inbox = await smtpInbox();
  svc = await startTestService({ env: { SMTP_URL: inbox.url } });
  owner = await ownerWithProject(svc, 'team-owner@example.com', 'Shared');
  await svc.api('POST', `/api/orgs/${owner.orgHandle}/members`, { token: owner.token, body: { email: 'agent-human@example.com', role: 'member' } });
});
afterAll(async () => {
  await svc?.stop();
  await inbox?.close();
});
beforeEach(() => svc.services.db.pool.query('DELETE FROM rate_limit_hits'));

const post = (path: string, body: unknown) => svc.api('POST', path, { body });

async function mcpWith(token: string) {
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

describe('anonymous registration and claim', () => {
  it('issues a key with no scopes, claims it by e-mailed OTP, and upgrades the same key to agent:read', async () => {
    const reg = await post('/agent/auth', { type: 'anonymous', requested_credential_type: 'api_key', agent_context: 'Claude Code\nin repo shop' });
    expect(reg.status).toBe(200);
    expect(reg.body).toMatchObject({ registration_type: 'anonymous', credential_type: 'api_key', credential_expires: null, scopes: [], post_claim_scopes: ['agent:read'] });
    expect(reg.body.registration_id).toMatch(/^reg_/);
    expect(reg.body.claim_token).toMatch(/^clm_/);
    const key = reg.body.credential;

    const before = await svc.api('GET', '/api/auth/session', { token: key });
    expect(before.status).toBe(401);
    expect(before.body.code).toBe('claim_required');

    const claim = await post('/agent/auth/claim', { claim_token: reg.body.claim_token, email: 'agent-human@example.com', agent_context: 'Shop agent 123456 \u0007!' });
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({ registration_id: reg.body.registration_id, status: 'initiated', expires_at: expect.any(String) });
    expect(claim.body.claim_attempt_id).toMatch(/^cla_/);
    const mail = inbox.messages.at(-1)!;
    expect(mail.to).toEqual(['agent-human@example.com']);
    expect(mail.raw).toContain('Shop agent [redacted] !');
    const otp = inbox.otpFor('agent-human@example.com')!;
    expect(otp).toMatch(/^\d{6}$/);
    const { rows: [stored] } = await svc.services.db.pool.query(`SELECT otp_hash FROM agent_registrations WHERE id = $1`, [reg.body.registration_id]);
    expect(JSON.stringify(stored)).not.toContain(otp);

    const wrong = await post('/agent/auth/claim/complete', { claim_token: reg.body.claim_token, otp: otp === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'otp_invalid', remaining: 4 });
    const done = await post('/agent/auth/claim/complete', { claim_token: reg.body.claim_token, otp });
    expect(done.body).toEqual({ registration_id: reg.body.registration_id, status: 'claimed' });
    expect((await post('/agent/auth/claim/complete', { claim_token: reg.body.claim_token, otp })).body.code).toBe('previously_claimed');

    const session = await svc.api('GET', '/api/auth/session', { token: key });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { email: 'agent-human@example.com' }, credential: { kind: 'agent', scopes: ['agent:read'] } });

    // Reads are open, writes are gated: on REST by method and path, on MCP per tool with -31003.
    const read = await svc.api('GET', `/api/orgs/${owner.orgHandle}/projects/shared`, { token: key });
    expect(read.status).toBe(200);
    expect((await svc.api('GET', `/api/orgs/${owner.orgHandle}/projects/shared/signals`, { token: key })).status).toBe(200);
    const write = await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, { token: key, body: { name: 'Agent project' } });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('agent_write_not_permitted');
    expect((await svc.api('PATCH', '/api/user/profile', { token: key, body: { name: 'x' } })).body.code).toBe('agent_write_not_permitted');
    expect((await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects/shared/studies/resolve-preview`, { token: key, body: { pathname: '/' } })).body.code).toBe('agent_write_not_permitted');
    expect((await svc.api('GET', `/api/organizations/${owner.orgHandle}/overview`, { token: key })).body.code).toBe('agent_write_not_permitted');

    const mcp = await mcpWith(key);
    const got = await mcp.callTool({ name: 'projects.get', arguments: { projectRef: `${owner.orgHandle}/shared` } });
    expect((got.structuredContent as any).project.handle).toBe('shared');
    await expect(mcp.callTool({ name: 'projects.create', arguments: { orgHandle: owner.orgHandle, name: 'Nope' } })).rejects.toMatchObject({ code: -31003 });
    await expect(mcp.callTool({ name: 'evidence.dismiss', arguments: { projectRef: `${owner.orgHandle}/shared`, signalId: 'sig_x', reason: 'x' } })).rejects.toMatchObject({ code: -31003 });
    await mcp.close();
  });
});

describe('verified_email registration', () => {
  it('mails the OTP at once and answers the claim with an access token carrying act', async () => {
    const reg = await post('/agent/auth', { type: 'identity_assertion', assertion_type: 'verified_email', assertion: 'agent-human@example.com', requested_credential_type: 'access_token' });
    expect(reg.status).toBe(200);
    expect(reg.body).toMatchObject({ registration_type: 'email-verification', post_claim_scopes: ['agent:read'] });
    expect(reg.body).not.toHaveProperty('credential');
    const otp = inbox.otpFor('agent-human@example.com')!;
    const done = await post('/agent/auth/claim/complete', { claim_token: reg.body.claim_token, otp });
    expect(done.body).toMatchObject({ registration_id: reg.body.registration_id, status: 'claimed', credential_type: 'access_token', scopes: ['agent:read'] });
    const claims = decodeJwt(done.body.credential);
    expect(claims.act).toEqual({ iss: 'urn:service:agent-email-verification', sub: reg.body.registration_id });
    const session = await svc.api('GET', '/api/auth/session', { token: done.body.credential });
    expect(session.body.credential).toEqual({ kind: 'agent', scopes: ['agent:read'] });
    const forged = done.body.credential.slice(0, -4) + 'AAAA';
    expect((await svc.api('GET', '/api/auth/session', { token: forged })).status).toBe(401);
  });
});

describe('OTP rules and errors', () => {
  const anonymous = () => post('/agent/auth', { type: 'anonymous', requested_credential_type: 'api_key' });

  it('locks after the fifth wrong code for an hour, and a new claim rotates the code and resets the counter', async () => {
    const reg = (await anonymous()).body;
    await post('/agent/auth/claim', { claim_token: reg.claim_token, email: 'lock@example.com' });
    const first = inbox.otpFor('lock@example.com')!;
    const bad = first === '999999' ? '999998' : '999999';
    expect((await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: bad })).body.remaining).toBe(4);
    expect((await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: bad })).body.remaining).toBe(3);
    await post('/agent/auth/claim', { claim_token: reg.claim_token, email: 'lock@example.com' });
    const second = inbox.otpFor('lock@example.com')!;
    if (second !== first) expect((await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: first })).body).toMatchObject({ code: 'otp_invalid', remaining: 4 });
    else await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: bad });
    const bad2 = second === '999999' ? '999998' : '999999';
    for (const remaining of [3, 2, 1]) expect((await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: bad2 })).body).toMatchObject({ code: 'otp_invalid', remaining });
    const locked = await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: bad2 });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('otp_locked');
    expect((await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: second })).status).toBe(429);
    expect((await post('/agent/auth/claim', { claim_token: reg.claim_token, email: 'lock@example.com' })).body.code).toBe('otp_locked');
    await svc.services.db.pool.query(`UPDATE agent_registrations SET locked_until = now() - interval '1 second' WHERE id = $1`, [reg.registration_id]);
    await svc.services.db.pool.query(`DELETE FROM otp_mail_log`);
    await post('/agent/auth/claim', { claim_token: reg.claim_token, email: 'lock@example.com' });
    expect((await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: inbox.otpFor('lock@example.com')! })).body.status).toBe('claimed');
  });

  it('expires codes after ten minutes and names every registration error', async () => {
    const reg = (await anonymous()).body;
    await post('/agent/auth/claim', { claim_token: reg.claim_token, email: 'expiry@example.com' });
    await svc.services.db.pool.query(`UPDATE agent_registrations SET otp_expires_at = now() - interval '1 second' WHERE id = $1`, [reg.registration_id]);
    expect((await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: inbox.otpFor('expiry@example.com')! })).body.code).toBe('otp_expired');
    expect((await post('/agent/auth/claim/complete', { claim_token: 'clm_nope', otp: '123456' })).body.code).toBe('invalid_claim_token');
    expect((await post('/agent/auth/claim/complete', { claim_token: reg.claim_token, otp: '12345' })).body.code).toBe('invalid_request');
    await svc.services.db.pool.query(`UPDATE agent_registrations SET expires_at = now() - interval '1 second' WHERE id = $1`, [reg.registration_id]);
    expect((await post('/agent/auth/claim', { claim_token: reg.claim_token, email: 'expiry@example.com' })).body.code).toBe('claim_expired');
    expect((await post('/agent/auth', { type: 'magic' })).body.code).toBe('unsupported_method');
    expect((await post('/agent/auth', { type: 'anonymous', requested_credential_type: 'access_token' })).body.code).toBe('unsupported_credential_type');
    expect((await post('/agent/auth', { type: 'identity_assertion', assertion_type: 'urn:ietf:params:oauth:token-type:id-jag', assertion: 'x.y.z', requested_credential_type: 'access_token' })).body.code).toBe('invalid_request');
    expect((await post('/agent/auth', { type: 'identity_assertion', assertion_type: 'verified_email', assertion: 'not-an-email', requested_credential_type: 'access_token' })).body.code).toBe('invalid_request');
    expect((await post('/agent/auth', { nothing: true })).body.code).toBe('invalid_request');
  });

  it('sends at most three claim mails an hour to one address', async () => {
    await svc.services.db.pool.query(`DELETE FROM otp_mail_log`);
    for (let i = 0; i < 3; i++) {
      expect((await post('/agent/auth', { type: 'identity_assertion', assertion_type: 'verified_email', assertion: 'busy@example.com', requested_credential_type: 'access_token' })).status).toBe(200);
      await svc.services.db.pool.query('DELETE FROM rate_limit_hits');
    }
    const fourth = await post('/agent/auth', { type: 'identity_assertion', assertion_type: 'verified_email', assertion: 'busy@example.com', requested_credential_type: 'access_token' });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({ code: 'rate_limited', reason: 'email_throttle' });
  });

  it('limits claim-producing registrations to 5 a minute per IP', async () => {
    for (let i = 0; i < 5; i++) expect((await anonymous()).status).toBe(200);
    const sixth = await anonymous();
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ code: 'rate_limited', reason: 'ip_throttle' });
    expect(sixth.headers.get('retry-after')).toBeTruthy();
  });
});

describe('mail delivery', () => {
  it('answers 502 send_failed and keeps nothing when mail cannot be sent', async () => {
    const broken = await startTestService({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    try {
      const res = await broken.api('POST', '/agent/auth', { body: { type: 'identity_assertion', assertion_type: 'verified_email', assertion: 'nobody@example.com', requested_credential_type: 'access_token' } });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('send_failed');
      const { rows } = await broken.services.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM agent_registrations`);
      expect(rows[0].n).toBe(0);
    } finally {
      await broken.stop();
    }
  });

  it('writes to the local outbox without SMTP_URL, read by the operator CLI', async () => {
    const local = await startTestService();
    try {
      const res = await local.api('POST', '/agent/auth', { body: { type: 'identity_assertion', assertion_type: 'verified_email', assertion: 'local@example.com', requested_credential_type: 'access_token' } });
      expect(res.status).toBe(200);
      const out = await runCliToEnd(['outbox'], { DATA_DIR: local.dataDir, DATABASE_URL: local.databaseUrl });
      expect(out.code).toBe(0);
      expect(out.stdout).toMatch(/To: local@example.com/);
      expect(out.stdout).toMatch(/claim code: \d{6}/);
    } finally {
      await local.stop();
    }
  });
});
