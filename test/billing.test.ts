import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { form, video } from './helpers/media.ts';
import { FIXTURES } from './helpers/extractor-eval.ts';
import { toolError } from './helpers/mcp.ts';

const OLD_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let admin: { token: string };

beforeAll(async () => {
  // Built-in transcription off: an upload fails for want of a service, which the failure ledger test needs.
  svc = await startTestService({ env: { WORKER: 'on', LOCAL_TRANSCRIPTION: 'off', BILLING_WEBHOOK_SECRET: `${OLD_SECRET}, ${SECRET}` } });
  o = await ownerWithProject(svc, 'billing-owner@example.com');
  admin = await svc.login('billing-ops@example.com', { admin: true });
});
afterAll(() => svc?.stop());

const billing = (token: string, query = '') => svc.api('GET', `/api/billing${query}`, { token });
const q = async <T = any>(sql: string, bind: unknown[] = []) => (await svc.services.db.pool.query(sql, bind)).rows as T[];
const orgIdOf = async (handle: string) => (await q<{ id: string }>(`SELECT id FROM organizations WHERE handle = $1`, [handle]))[0].id;

/** Everything billing writes, to check that a refused request changed nothing. */
async function snapshot() {
  return {
    ledger: await q(`SELECT id, amount, kind FROM billing_ledger ORDER BY id`),
    accounts: await q(`SELECT organization_id, payment_status, spending_cap FROM billing_accounts ORDER BY organization_id`),
    checkouts: await q(`SELECT id, status FROM billing_checkout_sessions ORDER BY id`),
    webhooks: await q(`SELECT delivery_id AS id, outcome FROM webhook_deliveries WHERE provider = 'billing' ORDER BY delivery_id`),
    interviews: Number((await q(`SELECT count(*) AS n FROM interviews`))[0].n),
  };
}

const importTranscript = (owner: typeof o, file = 'checkout.txt') =>
  postForm(svc, owner.token, `${owner.P}/sessions/import-transcript`, form({ transcript: { file: path.join(FIXTURES, file), type: 'text/plain' } }));

describe('credits for processed interviews', () => {
  it('starts every organization with the free grant', async () => {
    const res = await billing(o.token);
    expect(res.status).toBe(200);
    expect(res.body.billing).toMatchObject({
      organization: o.orgHandle,
      payment_status: 'none',
      spending_cap: null,
      balance: 100,
      usage_this_month: 0,
      free_grant: { credits: 100, granted_at: expect.any(String) },
      rates: { minutes_per_credit: 10 },
      can_manage_credits: true,
    });
    const events = (await svc.api('GET', '/api/billing/events', { token: o.token })).body;
    expect(events).toMatchObject({ total: 1, limit: 50, offset: 0, events: [{ kind: 'grant', credits: 100, interview_id: null }] });
  });

  it('charges a processed interview once, by its duration, and not again on reprocess', async () => {
    const res = await importTranscript(o);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.session.id;
    expect((await settled(o.call, id)).status).toBe('processed');
    const duration = (await o.call('GET', `/sessions/${id}`)).body.session.duration_seconds as number;
    const cost = Math.max(1, Math.ceil(duration / 600));

    const after = (await billing(o.token)).body.billing;
    expect(after).toMatchObject({ balance: 100 - cost, usage_this_month: cost });
    const events = (await svc.api('GET', '/api/billing/events', { token: o.token })).body;
    expect(events.total).toBe(2);
    expect(events.events[0]).toMatchObject({ kind: 'usage', credits: -cost, interview_id: id });
    const usage = (await svc.api('GET', '/api/billing/interviews', { token: o.token })).body;
    expect(usage).toMatchObject({ total: 1, interviews: [{ interview_id: id, project_ref: o.project.project_ref, credits: cost, processed_at: expect.any(String) }] });

    expect((await o.call('POST', `/sessions/${id}/reprocess`)).status).toBe(200);
    expect((await settled(o.call, id)).status).toBe('processed');
    expect((await billing(o.token)).body.billing.balance).toBe(100 - cost);
    expect(await q(`SELECT kind FROM billing_ledger WHERE interview_id = $1`, [id])).toEqual([{ kind: 'usage' }]);
  });

  it('records a failed processing run as a zero-cost failure event', async () => {
    const res = await postForm(svc, o.token, `${o.P}/sessions/upload-video`, form({ media: { file: video('billing-clip', 2), type: 'video/mp4' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.session.id;
    expect(await settled(o.call, id)).toMatchObject({ status: 'failed', error_code: 'transcription_unconfigured' });
    const events = (await svc.api('GET', '/api/billing/events?limit=1', { token: o.token })).body;
    expect(events.events).toEqual([expect.objectContaining({ kind: 'failure', credits: 0, interview_id: id, description: expect.stringContaining('transcription_unconfigured') })]);
    expect(await q(`SELECT kind, amount FROM billing_ledger WHERE interview_id = $1`, [id])).toEqual([{ kind: 'failure', amount: 0 }]);
  });

  it('answers the same over MCP', async () => {
    const mcp = await svc.mcp(o.token);
    const viaMcp = await mcp.callTool({ name: 'billing.get', arguments: {} });
    expect(viaMcp.structuredContent).toEqual((await billing(o.token)).body);
    const events = await mcp.callTool({ name: 'billing.events', arguments: { limit: 2 } });
    expect(events.structuredContent).toEqual((await svc.api('GET', '/api/billing/events?limit=2', { token: o.token })).body);
  });

  it('pages events within bounds', async () => {
    const all = (await svc.api('GET', '/api/billing/events', { token: o.token })).body;
    expect(all.total).toBe(3);
    const second = (await svc.api('GET', '/api/billing/events?limit=1&offset=1', { token: o.token })).body;
    expect(second).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(second.events).toEqual([all.events[1]]);
    expect((await svc.api('GET', '/api/billing/events?offset=10', { token: o.token })).body).toMatchObject({ total: 3, events: [] });
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc']) {
      const res = await svc.api('GET', `/api/billing/events?${bad}`, { token: o.token });
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBeTruthy();
    }
    expect((await svc.api('GET', '/api/billing/interviews?limit=101', { token: o.token })).status).toBe(400);
  });
});

describe('spending gate on reprocessing', () => {
  it('refuses to reprocess or retry while the organization is out of credits, changing nothing', async () => {
    const r = await ownerWithProject(svc, 'billing-reprocess@example.com');
    const id = (await importTranscript(r)).body.session.id;
    expect((await settled(r.call, id)).status).toBe('processed');
    const { balance } = (await billing(r.token)).body.billing;
    await q(`INSERT INTO billing_ledger (id, organization_id, kind, amount, description) VALUES ('bil_drain_re', $1, 'usage', $2, 'test usage')`, [await orgIdOf(r.orgHandle), -balance]);
    const before = (await r.call('GET', `/sessions/${id}/processing`)).body;
    const res = await r.call('POST', `/sessions/${id}/reprocess`);
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('credits_exhausted');
    expect((await r.call('POST', `/sessions/${id}/retry-processing`)).status).toBe(402);
    expect((await r.call('GET', `/sessions/${id}/processing`)).body).toEqual(before);
  });
});

describe('spending gate (402)', () => {
  let p: typeof o;
  beforeAll(async () => {
    p = await ownerWithProject(svc, 'billing-broke@example.com');
    await billing(p.token);
    // Spend the free credits as if 100 credits of interviews had been processed.
    await q(`INSERT INTO billing_ledger (id, organization_id, kind, amount, description) VALUES ('bil_drain', $1, 'usage', -100, 'test usage')`, [await orgIdOf(p.orgHandle)]);
  });

  const sdkCreate = () => svc.api('POST', '/api/sdk/sessions', { headers: { 'x-project-key': p.project.public_key }, body: { interview_mode: 'text' } });

  it('refuses new interviews when the balance is used up, writing nothing', async () => {
    expect((await billing(p.token)).body.billing).toMatchObject({ balance: 0, usage_this_month: 100 });
    const before = await snapshot();
    for (const res of [await p.call('POST', '/sessions', { participant_name: 'Ann' }), await sdkCreate(), await importTranscript(p)]) {
      expect(res.status, JSON.stringify(res.body)).toBe(402);
      expect(res.body).toMatchObject({ code: 'credits_exhausted', retryable: false, action: expect.stringContaining('/api/billing/checkout'), requestId: expect.any(String) });
    }
    expect(await snapshot()).toEqual(before);
    const mcp = await svc.mcp(p.token);
    expect(toolError(await mcp.callTool({ name: 'interviews.create', arguments: { projectRef: p.project.project_ref } }))).toMatchObject({ status: 402, code: 'credits_exhausted' });
  });

  it('refuses an import that would cost more than is left, saying how long it runs and what it costs, writing nothing', async () => {
    const fresh = await ownerWithProject(svc, 'billing-long@example.com');
    // Most of a day of talk on one line, timed by speech rate: 175,000 words at 150 a minute are 19 hours, 117 credits of the free 100.
    const words = 'so the checkout was honestly confusing and I could not find the pay button '.repeat(12_500);
    expect((await billing(fresh.token)).body.billing.balance).toBe(100);
    const before = await snapshot();
    const res = await postForm(svc, fresh.token, `${fresh.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.from(`Tom: ${words}`), filename: 'one-line.txt', type: 'text/plain' } }));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(402);
    expect(res.body).toMatchObject({ code: 'credits_exhausted', retryable: false, error: 'This interview runs about 19 hours, which costs 117 credits; the organization has 100 left' });
    expect(await snapshot()).toEqual(before);
    expect((await billing(fresh.token)).body.billing.balance).toBe(100);
    // An interview of ordinary length goes through.
    expect((await importTranscript(fresh)).status).toBe(201);
  });

  it('lets interviews through again after a grant, until the monthly spending cap', async () => {
    const grant = await svc.api('POST', '/api/admin/credits/grant', { token: admin.token, body: { email: 'billing-broke@example.com', credits: 10, idempotency_key: 'refill-1' } });
    expect(grant.status).toBe(201);
    expect((await p.call('POST', '/sessions', {})).status).toBe(201);
    expect((await sdkCreate()).status).toBe(201);

    const cap = await svc.api('PATCH', '/api/billing', { token: p.token, body: { spending_cap: 100 } });
    expect(cap.status).toBe(200);
    expect(cap.body.billing).toMatchObject({ spending_cap: 100, balance: 10, usage_this_month: 100 });
    const before = await snapshot();
    for (const res of [await p.call('POST', '/sessions', {}), await sdkCreate()]) {
      expect(res.status, JSON.stringify(res.body)).toBe(402);
      expect(res.body).toMatchObject({ code: 'spending_cap_reached', retryable: false, action: expect.stringContaining('PATCH /api/billing') });
    }
    expect(await snapshot()).toEqual(before);

    expect((await svc.api('PATCH', '/api/billing', { token: p.token, body: { spending_cap: 101 } })).status).toBe(200);
    expect((await p.call('POST', '/sessions', {})).status).toBe(201);
    expect((await svc.api('PATCH', '/api/billing', { token: p.token, body: { spending_cap: null } })).body.billing.spending_cap).toBeNull();
    expect((await svc.api('PATCH', '/api/billing', { token: p.token, body: { spending_cap: -1 } })).status).toBe(400);
  });

  it('lets members read but only owners and admins manage; strangers see no org', async () => {
    const member = await svc.login('billing-member@example.com');
    expect((await svc.api('POST', `/api/orgs/${p.orgHandle}/members`, { token: p.token, body: { email: 'billing-member@example.com' } })).status).toBe(201);
    const read = await billing(member.token, `?org=${p.orgHandle}`);
    expect(read.body.billing).toMatchObject({ organization: p.orgHandle, can_manage_credits: false });
    const before = await snapshot();
    const patch = await svc.api('PATCH', `/api/billing?org=${p.orgHandle}`, { token: member.token, body: { spending_cap: 1 } });
    expect(patch.status).toBe(403);
    expect(patch.body.code).toBe('role_required');
    expect((await svc.api('POST', `/api/billing/checkout?org=${p.orgHandle}`, { token: member.token, body: { credits: 5 } })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
    expect((await billing(o.token, `?org=${p.orgHandle}`)).status).toBe(404);
    expect((await billing(member.token)).body.billing.organization).toBe(member.orgHandle);
    expect((await svc.api('GET', '/api/billing')).status).toBe(401);
  });
});

describe('admin credit grants', () => {
  const grant = (token: string, body: Record<string, unknown>) => svc.api('POST', '/api/admin/credits/grant', { token, body });

  it('grants once per idempotency key', async () => {
    const user = await ownerWithProject(svc, 'billing-bonus@example.com');
    const body = { email: 'Billing-Bonus@example.com', credits: 25, reason: 'Beta tester', idempotency_key: 'bonus-2025-01' };
    const first = await grant(admin.token, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ replayed: false, balance: 125, grant: { organization: user.orgHandle, email: 'billing-bonus@example.com', credits: 25, reason: 'Beta tester', idempotency_key: 'bonus-2025-01' } });

    const again = await grant(admin.token, body);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ replayed: true, balance: 125, grant: first.body.grant });
    expect((await billing(user.token)).body.billing.balance).toBe(125);

    const before = await snapshot();
    const conflict = await grant(admin.token, { ...body, credits: 26 });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('idempotency_key_reused');
    expect((await grant(admin.token, { ...body, idempotency_key: 'other', email: 'nobody@example.com' })).status).toBe(404);
    expect((await grant(admin.token, { ...body, idempotency_key: 'other', credits: 0 })).status).toBe(400);
    expect((await grant(admin.token, { ...body, idempotency_key: 'other', credits: 1_000_001 })).status).toBe(400);
    expect((await grant(admin.token, { email: body.email, credits: 5 })).status).toBe(400);
    const denied = await grant(user.token, { ...body, idempotency_key: 'self-service' });
    expect(denied.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });
});

describe('checkout', () => {
  it('completes at once with the local provider and adds the purchase', async () => {
    const buyer = await svc.login('billing-buyer@example.com');
    const res = await svc.api('POST', '/api/billing/checkout', { token: buyer.token, body: { credits: 50 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: 'completed', session_id: expect.stringMatching(/^chk_/), credits: 50, amount_cents: 500, currency: 'usd' });
    expect(res.body.checkout_url).toBe(`${svc.url}/api/billing/checkout/${res.body.session_id}`);
    const status = await svc.api('GET', new URL(res.body.checkout_url).pathname, { token: buyer.token });
    expect(status.body.session).toMatchObject({ id: res.body.session_id, status: 'completed', provider: 'local', completed_at: expect.any(String) });
    expect((await svc.api('GET', new URL(res.body.checkout_url).pathname, { token: o.token })).status).toBe(404);

    const after = (await billing(buyer.token)).body.billing;
    expect(after).toMatchObject({ balance: 150, payment_status: 'active' });
    const events = (await svc.api('GET', '/api/billing/events', { token: buyer.token })).body.events;
    expect(events[0]).toMatchObject({ kind: 'purchase', credits: 50 });
    for (const credits of [0, 100_001, 1.5]) expect((await svc.api('POST', '/api/billing/checkout', { token: buyer.token, body: { credits } })).status).toBe(400);
  });
});

describe('billing webhook', () => {
  let target: { token: string; orgHandle: string };
  beforeAll(async () => {
    target = await svc.login('billing-hooks@example.com');
    await billing(target.token);
  });

  const signed = (body: string, o: { id?: string; secret?: string; at?: Date } = {}) => {
    const id = o.id ?? `msg_${randomBytes(8).toString('hex')}`;
    const at = o.at ?? new Date();
    const signature = new Webhook(o.secret ?? SECRET).sign(id, at, body);
    return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
  };
  const deliver = (body: string, headers: Record<string, string>) => svc.api('POST', '/api/webhooks/billing', { raw: body, headers: { 'content-type': 'application/json', ...headers } });
  const grantBody = (credits: number) => JSON.stringify({ type: 'credits.granted', data: { organization: target.orgHandle, credits } });
  const balance = async () => (await billing(target.token)).body.billing.balance as number;

  it('applies a signed event once; a redelivered webhook-id changes nothing', async () => {
    const body = grantBody(7);
    const headers = signed(body, { id: 'msg_grant_1' });
    const res = await deliver(body, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ received: true, type: 'credits.granted', outcome: 'applied' });
    expect(await balance()).toBe(107);

    const before = await snapshot();
    const replay = await deliver(body, signed(body, { id: 'msg_grant_1' }));
    expect(replay.status).toBe(200);
    expect(replay.body.outcome).toBe('duplicate');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses unsigned, tampered, re-serialised and stale deliveries with 401, changing nothing', async () => {
    const body = grantBody(1000);
    const before = await snapshot();
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    const cases: Array<[string, string, Record<string, string>]> = [
      ['unsigned', body, {}],
      ['no signature', body, { ...signed(body), 'webhook-signature': '' }],
      ['tampered', body.replace('1000', '9000'), signed(body)],
      ['re-serialised', pretty, signed(body)],
      ['wrong secret', body, signed(body, { secret: `whsec_${randomBytes(24).toString('base64')}` })],
      ['stale', body, signed(body, { at: new Date(Date.now() - 6 * 60_000) })],
      ['future', body, signed(body, { at: new Date(Date.now() + 6 * 60_000) })],
    ];
    for (const [name, sent, headers] of cases) {
      const res = await deliver(sent, headers);
      expect(res.status, name).toBe(401);
      expect(res.body, name).toMatchObject({ error: expect.any(String), code: expect.stringMatching(/^webhook_/), requestId: expect.any(String) });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('accepts a signature by the older of two rotated secrets, and any matching one of several signatures', async () => {
    const body = grantBody(3);
    expect((await deliver(body, signed(body, { secret: OLD_SECRET }))).body.outcome).toBe('applied');
    const headers = signed(body);
    headers['webhook-signature'] = `v1,${Buffer.from('not it').toString('base64')} ${headers['webhook-signature']}`;
    expect((await deliver(body, headers)).body.outcome).toBe('applied');
    expect(await balance()).toBe(113);
  });

  it('completes an open checkout once, marks a failed payment past due, and records unknown types', async () => {
    const orgId = await orgIdOf(target.orgHandle);
    await q(`INSERT INTO billing_checkout_sessions (id, organization_id, credits, amount_cents, currency, provider, url) VALUES ('chk_hosted', $1, 20, 200, 'usd', 'hosted', 'https://pay.example/x')`, [orgId]);
    const done = JSON.stringify({ type: 'checkout.completed', data: { session_id: 'chk_hosted' } });
    expect((await deliver(done, signed(done))).body.outcome).toBe('applied');
    expect((await deliver(done, signed(done))).body.outcome).toBe('ignored');
    expect(await q(`SELECT amount FROM billing_ledger WHERE kind = 'purchase' AND organization_id = $1`, [orgId])).toEqual([{ amount: 20 }]);
    expect((await billing(target.token)).body.billing).toMatchObject({ balance: 133, payment_status: 'active' });

    const failed = JSON.stringify({ type: 'payment.failed', data: { organization: target.orgHandle, reason: 'card declined' } });
    expect((await deliver(failed, signed(failed))).body.outcome).toBe('applied');
    expect((await billing(target.token)).body.billing).toMatchObject({ balance: 133, payment_status: 'past_due' });
    expect((await svc.api('GET', '/api/billing/events?limit=1', { token: target.token })).body.events[0]).toMatchObject({ kind: 'failure', credits: 0, description: 'Payment failed: card declined' });

    const unknown = JSON.stringify({ type: 'invoice.created', data: {} });
    const res = await deliver(unknown, signed(unknown, { id: 'msg_unknown' }));
    expect(res.body).toEqual({ received: true, type: 'invoice.created', outcome: 'ignored' });
    expect(await q(`SELECT outcome FROM webhook_deliveries WHERE provider = 'billing' AND delivery_id = 'msg_unknown'`)).toEqual([{ outcome: 'ignored' }]);
  });

  it('answers 400 to a signed payload that is not a valid event, recording nothing', async () => {
    const before = await snapshot();
    for (const body of ['not json', JSON.stringify({ data: {} }), JSON.stringify({ type: 'credits.granted', data: { organization: target.orgHandle, credits: -5 } })]) {
      const res = await deliver(body, signed(body));
      expect(res.status, body).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 503 naming the variable when no secret is configured', async () => {
    const bare = await startTestService();
    try {
      const body = '{"type":"credits.granted","data":{}}';
      const res = await bare.api('POST', '/api/webhooks/billing', { raw: body, headers: signed(body) });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'billing_webhook_unconfigured', action: expect.stringContaining('BILLING_WEBHOOK_SECRET') });
    } finally {
      await bare.stop();
    }
  });
});
