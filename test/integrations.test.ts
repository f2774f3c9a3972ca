import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign, verify } from '@octokit/webhooks-methods';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedInterview, ownerWithProject } from './helpers/fixtures.ts';
import { fakeGithub, type FakeGithub } from './helpers/fake-github.ts';
import { fakeLinear, type FakeLinear } from './helpers/fake-linear.ts';

const CODEHOST_SECRET = 'codehost-webhook-secret';
const TRACKER_SECRET = 'tracker-webhook-secret';

let svc: TestService;
let gh: FakeGithub;
let lin: FakeLinear;
let o: Awaited<ReturnType<typeof ownerWithProject>>;

const postRaw = (path: string, body: string, headers: Record<string, string>) =>
  fetch(`${svc.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const githubDelivery = async (payload: unknown, id: string, event = 'issues') => {
  const body = JSON.stringify(payload);
  return postRaw('/api/webhooks/codehost', body, { 'x-github-event': event, 'x-github-delivery': id, 'x-hub-signature-256': await sign(CODEHOST_SECRET, body) });
};
const linearDelivery = (payload: Record<string, unknown>, id: string, at = Date.now()) => {
  const body = JSON.stringify({ ...payload, webhookTimestamp: at });
  return postRaw('/api/webhooks/tracker', body, { 'linear-delivery': id, 'linear-signature': createHmac('sha256', TRACKER_SECRET).update(body).digest('hex') });
};

/** Links a code-host account to a person, as /api/auth/codehost/callback leaves it. */
async function linkCodehost(userId: string, login: string) {
  const sealed = svc.services.secrets.seal(`ghu_${login}`, userId);
  await svc.services.db.pool.query(
    `INSERT INTO user_identities (id, user_id, provider, external_id, login, token_ciphertext, token_key_id) VALUES ($1, $2, 'codehost', $3, $4, $5, $6)`,
    [`uid_${login}`, userId, `gh-${login}`, login, sealed.ciphertext, sealed.keyId],
  );
}

/** A reviewed finding over the interview's evidence about the discount code. */
async function reviewedFinding(title: string, sessionId: string) {
  const cards = (await o.call('GET', `/signals?session_id=${sessionId}&limit=200`)).body.signals;
  const discount = cards.filter((c: any) => /discount/i.test(c.quote));
  expect(discount.length).toBeGreaterThan(0);
  const created = await o.call('POST', '/findings/from-evidence', { title, evidence_refs: discount.map((c: any) => c.id) });
  expect(created.status).toBe(201);
  const ref = created.body.finding.finding_ref;
  expect((await o.call('PATCH', `/findings/${ref}`, { research_state: 'reviewed' })).status).toBe(200);
  return { ref, cards: discount };
}

beforeAll(async () => {
  gh = await fakeGithub();
  lin = await fakeLinear();
  svc = await startTestService({
    env: {
      WORKER: 'on',
      CODEHOST_APP_ID: gh.appId,
      CODEHOST_APP_PRIVATE_KEY: gh.privateKeyPem,
      CODEHOST_APP_SLUG: 'verbatim-test',
      CODEHOST_APP_URL: gh.url,
      CODEHOST_API_URL: gh.url,
      CODEHOST_WEBHOOK_SECRET: CODEHOST_SECRET,
      TRACKER_CLIENT_ID: 'lin-client',
      TRACKER_CLIENT_SECRET: 'lin-secret',
      TRACKER_AUTHORIZE_URL: `${lin.url}/oauth/authorize`,
      TRACKER_TOKEN_URL: `${lin.url}/oauth/token`,
      TRACKER_API_URL: lin.url,
      TRACKER_WEBHOOK_SECRET: TRACKER_SECRET,
    },
  });
  o = await ownerWithProject(svc, 'delivery@example.com', 'Checkout');
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await gh?.close();
  await lin?.close();
});

describe('webhook signatures', () => {
  it('agrees with GitHub\'s published test vector', async () => {
    const vector = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    expect(await sign("It's a Secret to Everybody", 'Hello, World!')).toBe(vector);
    expect(await verify("It's a Secret to Everybody", 'Hello, World!', vector)).toBe(true);
  });

  it('refuses unsigned, tampered, re-serialised and stale deliveries with 401, and answers a redelivery once', async () => {
    const payload = { action: 'closed', issue: { id: 1, number: 1, state: 'closed', state_reason: 'completed' } };
    const body = JSON.stringify(payload, null, 2);
    const signature = await sign(CODEHOST_SECRET, body);
    const unsigned = await postRaw('/api/webhooks/codehost', body, { 'x-github-event': 'issues' });
    expect(unsigned).toMatchObject({ status: 401, body: { code: 'invalid_signature' } });
    const tampered = await postRaw('/api/webhooks/codehost', body.replace('completed', 'not_planned'), { 'x-github-event': 'issues', 'x-hub-signature-256': signature });
    expect(tampered.status).toBe(401);
    // The same JSON with other bytes: the signature covers the bytes, not the meaning.
    const reserialised = await postRaw('/api/webhooks/codehost', JSON.stringify(payload), { 'x-github-event': 'issues', 'x-hub-signature-256': signature });
    expect(reserialised.status).toBe(401);
    const wrongSecret = await postRaw('/api/webhooks/codehost', body, { 'x-github-event': 'issues', 'x-hub-signature-256': await sign('other', body) });
    expect(wrongSecret.status).toBe(401);
    // Bytes that are not UTF-8, correctly signed over the raw bytes, are still not what GitHub sends.
    const bytes = Buffer.concat([Buffer.from(body), Buffer.from([0xff])]);
    const rawSig = `sha256=${createHmac('sha256', CODEHOST_SECRET).update(bytes).digest('hex')}`;
    const notUtf8 = await fetch(`${svc.url}/api/webhooks/codehost`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': 'issues', 'x-hub-signature-256': rawSig }, body: bytes });
    expect(notUtf8.status).toBe(401);
    const good = await postRaw('/api/webhooks/codehost', body, { 'x-github-event': 'issues', 'x-github-delivery': 'd-1', 'x-hub-signature-256': signature });
    expect(good).toMatchObject({ status: 200, body: { received: true, tasks: 0 } });
    const again = await postRaw('/api/webhooks/codehost', body, { 'x-github-event': 'issues', 'x-github-delivery': 'd-1', 'x-hub-signature-256': signature });
    expect(again).toMatchObject({ status: 200, body: { duplicate: true } });

    const lbody = JSON.stringify({ type: 'Issue', action: 'update', data: { id: 'x' }, webhookTimestamp: Date.now() });
    const lsig = createHmac('sha256', TRACKER_SECRET).update(lbody).digest('hex');
    expect((await postRaw('/api/webhooks/tracker', lbody, {})).body.code).toBe('invalid_signature');
    expect((await postRaw('/api/webhooks/tracker', lbody.replace('update', 'remove'), { 'linear-signature': lsig })).status).toBe(401);
    expect((await postRaw('/api/webhooks/tracker', lbody, { 'linear-signature': lsig })).status).toBe(200);
    const stale = await linearDelivery({ type: 'Issue', action: 'update', data: { id: 'x' } }, 'l-stale', Date.now() - 61_000);
    expect(stale).toMatchObject({ status: 401, body: { code: 'stale_delivery' } });
    const noStamp = JSON.stringify({ type: 'Issue', action: 'update', data: { id: 'x' } });
    expect((await postRaw('/api/webhooks/tracker', noStamp, { 'linear-signature': createHmac('sha256', TRACKER_SECRET).update(noStamp).digest('hex') })).status).toBe(401);
  });

  it('records a delivery only with its effects: one that fails half-way is applied whole when redelivered', async () => {
    const { pool } = svc.services.db;
    const task = (await o.call('POST', '/tasks', { title: 'Half-applied webhook', priority_score: 50 })).body.task;
    await pool.query(`INSERT INTO deliveries (id, project_id, task_id, provider, status, issue_id) SELECT 'dlv_half', project_id, id, 'linear', 'sent', 'lin-half' FROM tasks WHERE id = $1`, [task.id]);
    // The delivery's row is updated first; the work item's update then fails.
    await pool.query(`CREATE FUNCTION refuse_task_sync() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await pool.query(`CREATE TRIGGER refuse_task_sync BEFORE UPDATE ON tasks FOR EACH ROW WHEN (OLD.id = '${task.id}') EXECUTE FUNCTION refuse_task_sync()`);
    const completed = { type: 'Issue', action: 'update', data: { id: 'lin-half', state: { name: 'Done', type: 'completed' } } };
    try {
      expect((await linearDelivery(completed, 'half-1')).status).toBe(500);
    } finally {
      await pool.query(`DROP TRIGGER refuse_task_sync ON tasks; DROP FUNCTION refuse_task_sync()`);
    }
    expect((await pool.query(`SELECT 1 FROM webhook_deliveries WHERE provider = 'tracker' AND delivery_id = 'half-1'`)).rows).toEqual([]);
    expect((await pool.query(`SELECT issue_state FROM deliveries WHERE id = 'dlv_half'`)).rows[0].issue_state).toBeNull();
    const again = await linearDelivery(completed, 'half-1');
    expect(again).toMatchObject({ status: 200, body: { tasks: 1 } });
    expect((await o.call('GET', `/tasks/${task.id}`)).body.task).toMatchObject({ status: 'done', tracker_issue_status: 'Done' });
    expect((await linearDelivery(completed, 'half-1')).body.duplicate).toBe(true);
  });
});

describe('code host (GitHub App)', () => {
  it('installs, lists repos, binds one, sends a finding once, and a closing webhook resolves its evidence; similar new evidence becomes a recurrence candidate', async () => {
    expect((await o.call('GET', '/implementations')).body.implementations.map((i: any) => [i.id, i.status])).toEqual([['codehost', 'not_configured'], ['tracker', 'not_configured']]);
    expect((await o.call('GET', '/codehost-app/repos')).body.code).toBe('codehost_not_attached');
    const install = await o.call('GET', '/codehost-app/install');
    expect(install.status).toBe(200);
    const installUrl = new URL(install.body.install_url);
    expect(installUrl.pathname).toBe('/apps/verbatim-test/installations/new');
    const state = installUrl.searchParams.get('state')!;
    // The code host sends the person back after the install, in their signed-in browser.
    const setupUrl = `/api/codehost/app/setup?installation_id=77&setup_action=install&state=${state}`;
    expect((await svc.api('GET', setupUrl)).status).toBe(401);
    const unlinked = await svc.api('GET', setupUrl, { token: o.token });
    expect(unlinked).toMatchObject({ status: 403, body: { code: 'codehost_identity_required' } });
    await linkCodehost(o.userId, 'acme');
    const state2 = new URL((await o.call('GET', '/codehost-app/install')).body.install_url).searchParams.get('state')!;
    // Someone else's browser cannot finish it.
    const stranger = await svc.login('stranger@example.com');
    expect((await svc.api('GET', `/api/codehost/app/setup?installation_id=77&state=${state2}`, { token: stranger.token })).body.code).toBe('integration_state_invalid');
    const state3 = new URL((await o.call('GET', '/codehost-app/install')).body.install_url).searchParams.get('state')!;
    // A browser coming back from the code host is sent on to the project's settings in the workspace.
    const setup = await fetch(`${svc.url}/api/codehost/app/setup?installation_id=77&setup_action=install&state=${state3}`, { headers: { authorization: `Bearer ${o.token}`, accept: 'text/html' }, redirect: 'manual' });
    expect(setup.status).toBe(302);
    expect(setup.headers.get('location')).toBe(`${svc.url}/app/p/${o.project.project_ref}/settings`);
    expect((await svc.api('GET', `/api/codehost/app/setup?installation_id=77&setup_action=install&state=${state3}`, { token: o.token })).body.code).toBe('integration_state_invalid');

    // Another customer cannot attach this installation by guessing its number.
    const thief = await ownerWithProject(svc, 'thief@example.com', 'Loot');
    await linkCodehost(thief.userId, 'thief');
    const thiefState = new URL((await thief.call('GET', '/codehost-app/install')).body.install_url).searchParams.get('state')!;
    const stolen = await svc.api('GET', `/api/codehost/app/setup?installation_id=77&state=${thiefState}`, { token: thief.token });
    expect(stolen).toMatchObject({ status: 403, body: { code: 'installation_not_yours' } });
    expect((await thief.call('GET', '/codehost-app/installations')).body.installations).toEqual([]);
    expect((await o.call('GET', '/codehost-app/installations')).body.installations).toEqual([{ installation_id: '77', account_login: 'acme', attached: true }]);
    const repos = (await o.call('GET', '/codehost-app/repos')).body.repos;
    expect(repos.map((r: any) => r.full_name)).toEqual(['acme/shop', 'acme/site']);
    expect((await o.call('POST', '/codehost-app/select-repo', { repo: 'acme/elsewhere' })).status).toBe(404);
    expect((await o.call('POST', '/codehost-app/select-repo', { repo: 'not a repo' })).status).toBe(400);
    const bound = await o.call('POST', '/codehost-app/select-repo', { repo: 'acme/shop' });
    expect(bound.body.project).toMatchObject({ codehost_repo_url: 'acme/shop', codehost_default_branch: 'trunk', codehost_installation_id: '77' });

    const sessionA = await importedInterview(svc, o, 'checkout.txt');
    const { ref, cards } = await reviewedFinding('Discount code field is hard to find', sessionA);
    const draft = await o.call('POST', '/findings/from-evidence', { title: 'Not reviewed yet', evidence_refs: [cards[0].id] });
    expect((await o.call('POST', `/findings/${draft.body.finding.finding_ref}/send`, { provider: 'github' })).body.code).toBe('finding_not_reviewed');
    expect((await o.call('POST', `/findings/${ref}/send`, { provider: 'gitlab' })).status).toBe(400);

    const sent = await o.call('POST', `/findings/${ref}/send`, { provider: 'github' });
    expect(sent.status).toBe(200);
    expect(sent.body.delivery).toMatchObject({ provider: 'github', status: 'sent', target: 'acme/shop', issue_number: 1, placement: 'backlog_fallback', issue_url: `${gh.url}/acme/shop/issues/1` });
    expect(sent.body.finding).toMatchObject({ delivery_state: 'awaiting_product_triage', provider_placement: 'backlog_fallback' });
    expect(gh.issues).toHaveLength(1);
    expect(gh.issues[0]).toMatchObject({ title: 'Discount code field is hard to find', labels: ['verbatim'] });
    for (const c of cards) expect(gh.issues[0].body).toContain(c.quote.replace(/\n+/g, ' '));
    expect(gh.issues[0].body).toContain(`${svc.url}/api/orgs/${o.orgHandle}/projects/${o.project.handle}/tasks/${sent.body.task_id}`);

    const again = await o.call('POST', `/findings/${ref}/send`, { provider: 'github' });
    expect(again.body.delivery.issue_id).toBe(sent.body.delivery.issue_id);
    expect((await o.call('POST', `/tasks/${sent.body.task_id}/push`, { provider: 'github' })).body.delivery.issue_number).toBe(1);
    expect(gh.issues).toHaveLength(1);

    const issue = gh.issues[0];
    const closed = await githubDelivery({ action: 'closed', issue: { id: issue.id, number: issue.number, state: 'closed', state_reason: 'completed' }, repository: { full_name: 'acme/shop' } }, 'close-1');
    expect(closed).toMatchObject({ status: 200, body: { tasks: 1, resolved: cards.length } });
    const card = (await o.call('GET', `/signals/${cards[0].id}`)).body.signal;
    expect(card.evidence_resolution).toMatchObject({ task_id: sent.body.task_id, resolved_by_provider: 'github', resolved_by_provider_issue_id: String(issue.id), resolution_reason: 'issue_closed', resolved_at: expect.any(String) });
    expect((await o.call('GET', `/tasks/${sent.body.task_id}`)).body.task).toMatchObject({ status: 'done', tracker_issue_status: 'closed' });
    expect((await o.call('GET', `/findings/${ref}`)).body.finding.delivery_state).toBe('completed');
    // A redelivery changes nothing.
    const resolvedAt = card.evidence_resolution.resolved_at;
    expect((await githubDelivery({ action: 'reopened', issue: { id: issue.id, state: 'open' } }, 'close-1')).body.duplicate).toBe(true);
    expect((await o.call('GET', `/signals/${cards[0].id}`)).body.signal.evidence_resolution.resolved_at).toBe(resolvedAt);

    // The same complaint in a new interview is flagged as possibly coming back.
    const sessionB = await importedInterview(svc, o, 'checkout.txt');
    const returning = (await o.call('GET', `/signals?session_id=${sessionB}&limit=200`)).body.signals.find((s: any) => s.quote === cards[0].quote);
    const read = (await o.call('GET', `/signals/${returning.id}`)).body.signal;
    expect(read.recurrence_candidates[0]).toMatchObject({ related_task_id: sent.body.task_id, status: 'candidate', related_task: { status: 'done' } });

    // Reopened: the resolutions it made are taken back.
    const reopened = await githubDelivery({ action: 'reopened', issue: { id: issue.id, number: 1, state: 'open', state_reason: 'reopened' } }, 'reopen-1');
    expect(reopened.body).toMatchObject({ tasks: 1, reverted: cards.length });
    expect((await o.call('GET', `/signals/${cards[0].id}`)).body.signal.evidence_resolution.resolved_at).toBeNull();
    expect((await o.call('GET', `/tasks/${sent.body.task_id}`)).body.task.status).toBe('ready');
    expect((await o.call('GET', `/findings/${ref}`)).body.finding.delivery_state).toBe('awaiting_product_triage');

    const live = await o.call('GET', `/tasks/${sent.body.task_id}/provider-state?refresh=true`);
    expect(live.body.deliveries).toEqual([expect.objectContaining({ provider: 'github', status: 'sent', issue_state: 'open', last_synced_at: expect.any(String) })]);
    expect((await o.call('GET', '/implementations/codehost')).body.implementation).toMatchObject({ status: 'connected', target: 'acme/shop', deliveries: { sent: 1, retrying: 0, failed: 0 } });
  });

  it('retries a busy code host with backoff in a job, and fails plainly on a refusal', async () => {
    const task = (await o.call('POST', '/tasks', { title: 'Retry me', status: 'ready' })).body.task;
    gh.failNext.push(503, 429);
    const first = await o.call('POST', `/tasks/${task.id}/push`, {});
    expect(first.status).toBe(200);
    expect(first.body.delivery).toMatchObject({ status: 'retrying', attempts: 1, last_error: 'The code host answered HTTP 503' });
    const until = Date.now() + 30_000;
    let delivery = first.body.delivery;
    while (delivery.status !== 'sent' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 300));
      delivery = (await o.call('GET', `/tasks/${task.id}/provider-state`)).body.deliveries[0];
    }
    expect(delivery).toMatchObject({ status: 'sent', attempts: 3 });
    expect(gh.issues.filter((i) => i.title === 'Retry me')).toHaveLength(1);

    // A retry whose repository was unbound meanwhile fails for good instead of retrying forever.
    const orphan = (await o.call('POST', '/tasks', { title: 'Orphaned', status: 'ready' })).body.task;
    gh.failNext.push(503);
    expect((await o.call('POST', `/tasks/${orphan.id}/push`, {})).body.delivery.status).toBe('retrying');
    await svc.services.db.pool.query(`UPDATE projects SET codehost_repo_url = NULL WHERE id = $1`, [o.project.ref]);
    let orphaned = (await o.call('GET', `/tasks/${orphan.id}/provider-state`)).body.deliveries[0];
    for (const until = Date.now() + 20_000; orphaned.status === 'retrying' && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 300));
      orphaned = (await o.call('GET', `/tasks/${orphan.id}/provider-state`)).body.deliveries[0];
    }
    expect(orphaned).toMatchObject({ status: 'failed', last_error: 'The project has no code-host repository to send to' });
    await o.call('POST', '/codehost-app/select-repo', { repo: 'acme/shop' });

    // Two sends at once make one issue.
    const twice = (await o.call('POST', '/tasks', { title: 'Sent twice at once', status: 'ready' })).body.task;
    const both = await Promise.all([o.call('POST', `/tasks/${twice.id}/push`, {}), o.call('POST', `/tasks/${twice.id}/push`, {})]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => r.body.delivery.status).sort()).toEqual(expect.arrayContaining(['sent']));
    expect(gh.issues.filter((i) => i.title === 'Sent twice at once')).toHaveLength(1);

    const refused = (await o.call('POST', '/tasks', { title: 'Refused', status: 'ready' })).body.task;
    gh.failNext.push(422);
    const res = await o.call('POST', `/tasks/${refused.id}/push`, {});
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'codehost_error', retryable: false });
    expect((await o.call('GET', `/tasks/${refused.id}/provider-state`)).body.deliveries[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('keeps other organizations out', async () => {
    const other = await ownerWithProject(svc, 'delivery-other@example.com', 'Other');
    const task = (await o.call('POST', '/tasks', { title: 'Mine', status: 'ready' })).body.task;
    expect((await other.call('POST', `/tasks/${task.id}/push`, { provider: 'github' })).status).toBe(404);
    expect((await other.call('POST', '/codehost-app/select-installation', { installation_id: '77' })).status).toBe(404);
    expect((await other.call('POST', `/tasks/${task.id}/push`, {})).status).toBe(404);
  });
});

describe('tracker (Linear)', () => {
  it('connects with OAuth, registers its webhook, sends to triage (or backlog without triage), and a completed state resolves the evidence', async () => {
    const connect = await svc.api('GET', `/api/orgs/${o.orgHandle}/tracker/connect`, { token: o.token });
    expect(connect.status).toBe(200);
    const authorize = new URL(connect.body.authorize_url);
    expect(authorize.origin + authorize.pathname).toBe(`${lin.url}/oauth/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${svc.url}/api/tracker/callback`);
    const state = authorize.searchParams.get('state')!;
    // The callback belongs to the browser that began the connection: another person's session cannot use it.
    const other = await svc.login('tracker-stranger@example.com');
    expect((await svc.api('GET', `/api/tracker/callback?code=good-code&state=${state}`, { token: other.token })).body.code).toBe('integration_state_invalid');
    const retry = new URL((await svc.api('GET', `/api/orgs/${o.orgHandle}/tracker/connect`, { token: o.token })).body.authorize_url).searchParams.get('state')!;
    expect((await svc.api('GET', `/api/tracker/callback?code=bad-code&state=${retry}`, { token: o.token })).body.code).toBe('tracker_error');
    const again = await svc.api('GET', `/api/orgs/${o.orgHandle}/tracker/connect`, { token: o.token });
    const state2 = new URL(again.body.authorize_url).searchParams.get('state')!;
    const callback = await svc.api('GET', `/api/tracker/callback?code=good-code&state=${state2}`, { token: o.token });
    expect(callback.body).toMatchObject({ connected: true, workspace_name: 'Acme', webhook: { status: 'registered' }, workspace_url: `${svc.url}/app/projects` });
    expect(lin.webhooks[0]).toMatchObject({ url: `${svc.url}/api/webhooks/tracker`, resourceTypes: ['Issue', 'Comment'], secret: TRACKER_SECRET });
    expect((await svc.api('GET', `/api/orgs/${o.orgHandle}/tracker/connection`, { token: o.token })).body).toMatchObject({ connected: true, workspace_id: 'lin_org_1' });
    expect((await svc.api('GET', `/api/orgs/${o.orgHandle}/tracker/claim`, { token: o.token })).body.webhook.status).toBe('registered');

    const teams = (await o.call('GET', '/tracker/teams')).body.teams;
    expect(teams.map((t: any) => [t.key, t.triage_enabled])).toEqual([['TRI', true], ['PLN', false]]);
    expect((await o.call('POST', '/tracker/select-team', { team_id: 'nope' })).status).toBe(404);
    await o.call('POST', '/tracker/select-team', { team_id: 'team_triage' });

    const sessionC = await importedInterview(svc, o, 'checkout.txt');
    const { ref, cards } = await reviewedFinding('Discount code again', sessionC);
    const sent = await o.call('POST', `/findings/${ref}/send`, { provider: 'linear' });
    expect(sent.body.delivery).toMatchObject({ provider: 'linear', status: 'sent', target: 'TRI', placement: 'triage', issue_state: 'Triage' });
    expect(sent.body.finding).toMatchObject({ delivery_state: 'awaiting_product_triage', provider_placement: 'triage' });
    expect(lin.issues.at(-1)).toMatchObject({ stateId: 'st_tri', teamId: 'team_triage' });
    expect(lin.issues.at(-1)!.description).toContain(cards[0].quote.replace(/\n+/g, ' '));
    const issueId = sent.body.delivery.issue_id;

    expect((await linearDelivery({ type: 'Issue', action: 'update', organizationId: 'lin_org_1', data: { id: issueId, state: { name: 'In Progress', type: 'started' } } }, 'lin-1')).body.tasks).toBe(1);
    expect((await o.call('GET', `/findings/${ref}`)).body.finding.delivery_state).toBe('in_progress');
    const done = await linearDelivery({ type: 'Issue', action: 'update', organizationId: 'lin_org_1', data: { id: issueId, state: { name: 'Done', type: 'completed' } } }, 'lin-2');
    expect(done.body).toMatchObject({ tasks: 1, resolved: cards.length });
    expect((await o.call('GET', `/signals/${cards[0].id}`)).body.signal.evidence_resolution).toMatchObject({ resolved_by_provider: 'linear', resolution_reason: 'issue_completed' });
    expect((await o.call('GET', `/findings/${ref}`)).body.finding.delivery_state).toBe('completed');
    expect((await linearDelivery({ type: 'Comment', action: 'create', organizationId: 'lin_org_1', data: { id: 'c1' } }, 'lin-3')).body.ignored).toBe(true);
    const health = await svc.api('GET', `/api/orgs/${o.orgHandle}/tracker/webhook/status`, { token: o.token });
    expect(health.body).toMatchObject({ status: 'registered', secret_configured: true, deliveries_24h: 3, last_delivery_at: expect.any(String) });

    // A team without triage gets the issue in its backlog.
    await o.call('POST', '/tracker/select-team', { team_id: 'team_plain' });
    const task = (await o.call('POST', '/tasks', { title: 'Plain team work', status: 'ready' })).body.task;
    const plain = await o.call('POST', `/tasks/${task.id}/push/tracker`);
    expect(plain.body.delivery).toMatchObject({ placement: 'backlog_fallback', target: 'PLN' });
    expect(lin.issues.at(-1)!.stateId).toBe('st_plain_back');

    expect((await svc.api('DELETE', `/api/orgs/${o.orgHandle}/tracker/connection`, { token: o.token })).body).toEqual({ success: true });
    expect((await o.call('GET', '/tracker/teams')).body.code).toBe('tracker_not_connected');
  });

  it('refuses to send a finding where the project cannot deliver before making its work item, leaving none behind', async () => {
    const c = await ownerWithProject(svc, 'unbound@example.com', 'Unbound');
    const interview = await importedInterview(svc, c, 'checkout.txt');
    const evidence = (await c.call('GET', `/signals?session_id=${interview}&limit=5`)).body.signals.map((x: { id: string }) => x.id);
    const made = await c.call('POST', '/findings/from-evidence', { title: 'Discount code is hard to find', evidence_refs: evidence.slice(0, 1) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const ref = made.body.finding.finding_ref;
    expect((await c.call('POST', `/findings/${ref}/send`, { provider: 'github' })).body.code).toBe('finding_not_reviewed');
    expect((await c.call('PATCH', `/findings/${ref}`, { research_state: 'reviewed' })).status).toBe(200);
    expect((await c.call('POST', `/findings/${ref}/send`, { provider: 'github' })).body.code).toBe('codehost_not_configured');
    expect((await c.call('POST', `/findings/${ref}/send`, { provider: 'linear' })).body).toMatchObject({ code: 'tracker_not_connected', action: expect.stringContaining("Integrations in the project's settings") });
    expect((await c.call('GET', '/tasks')).body.tasks).toEqual([]);
  });

  it('says what is missing when the server has no integration settings', async () => {
    const bare = await startTestService();
    try {
      const b = await ownerWithProject(bare, 'bare@example.com', 'Bare');
      const install = await b.call('GET', '/codehost-app/install');
      expect(install).toMatchObject({ status: 503, body: { code: 'codehost_unconfigured', retryable: false, action: expect.stringContaining('CODEHOST_APP_ID') } });
      const connect = await bare.api('GET', `/api/orgs/${b.orgHandle}/tracker/connect`, { token: b.token });
      expect(connect.body).toMatchObject({ code: 'tracker_unconfigured', action: expect.stringContaining('TRACKER_CLIENT_ID') });
      const hook = await fetch(`${bare.url}/api/webhooks/codehost`, { method: 'POST', body: '{}' });
      expect(hook.status).toBe(503);
      const task = (await b.call('POST', '/tasks', { title: 'Nowhere to go', status: 'ready' })).body.task;
      expect((await b.call('POST', `/tasks/${task.id}/push`, {})).body.code).toBe('no_delivery_integration');
      // What the server lacks comes first: no project setting can make up for it.
      expect((await b.call('POST', `/tasks/${task.id}/push`, { provider: 'github' }))).toMatchObject({ status: 503, body: { code: 'codehost_unconfigured', action: expect.stringContaining('CODEHOST_APP_ID') } });
      expect((await b.call('POST', `/tasks/${task.id}/push`, { provider: 'linear' }))).toMatchObject({ status: 503, body: { code: 'tracker_unconfigured', action: expect.stringContaining('TRACKER_CLIENT_ID') } });
    } finally {
      await bare.stop();
    }
  });
});
