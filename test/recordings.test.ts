import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, settled } from './helpers/fixtures.ts';
import { ffmpeg, mediaDir } from './helpers/media.ts';
import { launchBrowser } from './helpers/browser.ts';
import { toolError } from './helpers/mcp.ts';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let other: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  o = await ownerWithProject(svc, 'recordings@example.com', 'Checkout');
  other = await ownerWithProject(svc, 'recordings-other@example.com', 'Elsewhere');
});
afterAll(() => svc?.stop());

const FIELDS = ['id', 'projectRef', 'externalRef', 'plan', 'launchUrl', 'instructions', 'expiresAt', 'revoked', 'status', 'interviewRef', 'interviewUrl', 'viewUrl'];
const DAY = 24 * 60 * 60 * 1000;

function plan(over: Record<string, unknown> = {}) {
  return {
    version: 1,
    title: 'Checkout walkthrough',
    targetUrl: 'https://shop.example.com/',
    steps: [{ instruction: 'Put a product in the cart', url: 'https://shop.example.com/p/1' }, { instruction: 'Pay for it' }],
    ...over,
  };
}
const create = (body: Record<string, unknown>) => o.call('POST', '/recording-invitations', body);
const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ instruction: `Step ${i + 1}` }));
const tokenOf = (launchUrl: string) => launchUrl.split('/r/')[1];
const page = (url: string) => fetch(url).then(async (res) => ({ status: res.status, html: await res.text(), headers: res.headers }));
const launch = (token: string, action: string) => svc.api('POST', `/api/recordings/${token}/${action}`, { body: {} });
const countRows = async () => (await svc.services.db.pool.query(`SELECT count(*)::int AS n FROM recording_invitations`)).rows[0].n as number;

async function uploadPart(session: string, projectKey: string, n: number, part: Uint8Array) {
  const res = await fetch(`${svc.url}/api/sdk/screen/upload-session/upload-part`, {
    method: 'POST',
    headers: { 'x-project-key': projectKey, 'content-type': 'application/octet-stream', 'x-session-id': session, 'x-part-number': String(n) },
    body: part,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(((await res.json()) as { part_number: number }).part_number).toBe(n);
}

/** A real two-second WebM (VP8 + Opus) as MediaRecorder would make it. */
function webm(): Buffer {
  const out = path.join(mediaDir, 'recording.webm');
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-shortest', '-c:v', 'libvpx', '-b:v', '300k', '-c:a', 'libopus', out]);
  return fs.readFileSync(out);
}

describe('recording invitations', () => {
  it('creates an invitation shaped as SPEC 2.12', async () => {
    const before = Date.now();
    const res = await create({ plan: plan(), externalRef: 'TICKET-1' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...FIELDS].sort());
    expect(res.body).toMatchObject({
      projectRef: o.project.project_ref,
      externalRef: 'TICKET-1',
      plan: plan(),
      revoked: false,
      status: 'invited',
      interviewRef: null,
      interviewUrl: null,
      viewUrl: null,
    });
    expect(res.body.launchUrl).toMatch(new RegExp(`^${svc.url}/r/[A-Za-z0-9_-]{43}$`));
    expect(res.body.instructions).toContain(res.body.launchUrl);
    const expires = new Date(res.body.expiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000);
  });

  it('keeps the SPEC bounds and writes nothing for bad input', async () => {
    const rows = await countRows();
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ plan: plan(), expiresInDays: 0 }, /expiresInDays/],
      [{ plan: plan(), expiresInDays: 31 }, /expiresInDays/],
      [{ plan: plan(), expiresInDays: 2.5 }, /expiresInDays/],
      [{ plan: plan({ steps: [] }) }, /plan\.steps/],
      [{ plan: plan({ steps: steps(31) }) }, /plan\.steps/],
      [{ plan: plan({ title: 'x'.repeat(161) }) }, /plan\.title/],
      [{ plan: plan({ title: '' }) }, /plan\.title/],
      [{ plan: plan({ version: 2 }) }, /plan\.version/],
      [{ plan: plan({ targetUrl: 'javascript:alert(1)' }) }, /plan\.targetUrl/],
      [{ plan: plan({ targetUrl: `https://example.com/${'a'.repeat(4000)}` }) }, /plan\.targetUrl/],
      [{ plan: plan({ steps: [{ instruction: 'x'.repeat(2001) }] }) }, /plan\.steps\.0\.instruction/],
      [{ plan: plan({ steps: [{ instruction: 'Go', url: 'not a url' }] }) }, /plan\.steps\.0\.url/],
      [{ plan: plan({ extra: true }) }, /plan\.extra/],
      [{ plan: plan(), externalRef: 'x'.repeat(201) }, /externalRef/],
      [{ plan: plan(), studyRef: '' }, /studyRef/],
      [{}, /plan/],
    ];
    for (const [body, re] of refused) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.body.error).toMatch(re);
    }
    const missingStudy = await create({ plan: plan(), studyRef: 'no-such-study' });
    expect(missingStudy.status).toBe(404);
    expect(await countRows()).toBe(rows);

    for (const days of [1, 30]) {
      const res = await create({ plan: plan(), expiresInDays: days });
      expect(res.status).toBe(200);
      expect(Math.abs(new Date(res.body.expiresAt).getTime() - (Date.now() + days * DAY))).toBeLessThan(5000);
    }
    expect((await create({ plan: plan({ steps: steps(30), title: 'x'.repeat(160) }) })).status).toBe(200);
    expect((await create({ plan: plan(), studyRef: 'starter-study' })).status).toBe(200);
  });

  it('lists newest first and polls one', async () => {
    const first = (await create({ plan: plan({ title: 'Older' }) })).body;
    const second = (await create({ plan: plan({ title: 'Newer' }) })).body;
    const list = await o.call('GET', '/recording-invitations');
    expect(list.status).toBe(200);
    const ids = list.body.invitations.map((i: any) => i.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(list.body.invitations[0]).toEqual(second);

    const one = await o.call('GET', `/recording-invitations/${first.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...first, processing: null });
    expect((await o.call('GET', '/recording-invitations/rin_nope')).status).toBe(404);
  });

  it('records guest invitations in the organization\'s one guest project', async () => {
    const orgPath = `/api/organizations/${o.orgHandle}/recording-invitations`;
    const a = await svc.api('POST', orgPath, { token: o.token, body: { targetUrl: 'https://www.example.org/pricing', externalRef: 'lead-7' } });
    const b = await svc.api('POST', orgPath, { token: o.token, body: { targetUrl: 'https://docs.example.net/' } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.projectRef).toBe(`${o.orgHandle}/guest-recordings`);
    expect(b.body.projectRef).toBe(a.body.projectRef);
    expect(a.body).toMatchObject({ externalRef: 'lead-7', status: 'invited', plan: { version: 1, title: 'Recording of www.example.org', targetUrl: 'https://www.example.org/pricing' } });
    expect(a.body.plan.steps).toEqual([{ instruction: expect.stringMatching(/^Show us what you do on this site/), url: 'https://www.example.org/pricing' }]);
    expect(a.body.launchUrl).toMatch(/\/r\/[A-Za-z0-9_-]{43}$/);
    expect(a.body.instructions).toContain(a.body.launchUrl);

    const projects = (await svc.api('GET', `/api/orgs/${o.orgHandle}/projects`, { token: o.token })).body.projects;
    expect(projects.filter((p: any) => p.name === 'Guest recordings')).toHaveLength(1);
    const { rows } = await svc.services.db.pool.query(`SELECT p.handle FROM organizations o JOIN projects p ON p.id = o.guest_project_id WHERE o.handle = $1`, [o.orgHandle]);
    expect(rows[0].handle).toBe('guest-recordings');
    const guest = await svc.api('GET', `/api/orgs/${o.orgHandle}/projects/guest-recordings/recording-invitations`, { token: o.token });
    expect(guest.body.invitations.map((i: any) => i.id)).toEqual([b.body.id, a.body.id]);
    expect((await svc.api('GET', `/api/orgs/${o.orgHandle}/projects/guest-recordings/studies`, { token: o.token })).body.studies).toHaveLength(1);

    expect((await svc.api('POST', orgPath, { token: o.token, body: { targetUrl: 'ftp://example.org' } })).status).toBe(400);
    expect((await svc.api('POST', orgPath, { token: other.token, body: { targetUrl: 'https://example.org' } })).status).toBe(404);
  });

  it('revokes: the launch page answers 410 and the recording cannot start', async () => {
    const inv = (await create({ plan: plan() })).body;
    const token = tokenOf(inv.launchUrl);
    expect((await page(inv.launchUrl)).status).toBe(200);
    const revoked = await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'revoke' });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: inv.id, status: 'revoked', revoked: true });
    expect((await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'revoke' })).body).toEqual(revoked.body);
    const gone = await page(inv.launchUrl);
    expect(gone.status).toBe(410);
    expect(gone.html).toMatch(/withdrawn/);
    const start = await launch(token, 'start');
    expect(start.status).toBe(422);
    expect(start.body).toMatchObject({ code: 'invitation_revoked', retryable: false, action: expect.any(String) });
    expect((await launch(token, 'complete')).body.code).toBe('invitation_revoked');
    expect((await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'pause' })).status).toBe(400);
  });

  it('revoking a recording under way stops its uploads', async () => {
    const inv = (await create({ plan: plan() })).body;
    const started = (await launch(tokenOf(inv.launchUrl), 'start')).body;
    await svc.api('POST', '/api/sdk/screen/upload-session/start', { headers: { 'x-project-key': started.project_key, origin: svc.url }, body: { session_id: started.session_id } });
    await uploadPart(started.session_id, started.project_key, 1, new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3]));
    await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'revoke' });
    const refused = await fetch(`${svc.url}/api/sdk/screen/upload-session/upload-part`, {
      method: 'POST',
      headers: { 'x-project-key': started.project_key, 'content-type': 'application/octet-stream', 'x-session-id': started.session_id, 'x-part-number': '2' },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(((await refused.json()) as { code: string }).code).toBe('session_ended');
    const finalize = await svc.api('POST', '/api/sdk/screen/upload-session/finalize', { headers: { 'x-project-key': started.project_key, origin: svc.url }, body: { session_id: started.session_id } });
    expect(finalize.body.code).toBe('session_ended');
    expect((await o.call('GET', `/sessions/${started.session_id}`)).body.session.status).toBe('abandoned');
  });

  it('turns the viewing link on and off', async () => {
    const inv = (await create({ plan: plan() })).body;
    const shared = await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'share' });
    expect(shared.body.viewUrl).toMatch(new RegExp(`^${svc.url}/r/view/[A-Za-z0-9_-]{43}$`));
    expect((await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'share' })).body.viewUrl).toBe(shared.body.viewUrl);
    const pending = await page(shared.body.viewUrl);
    expect(pending.status).toBe(404);
    expect(pending.html).toMatch(/not available yet/);

    const unshared = await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'unshare' });
    expect(unshared.body.viewUrl).toBeNull();
    const off = await page(shared.body.viewUrl);
    expect(off.status).toBe(404);
    expect(off.html).toMatch(/not turned on/);
    const again = await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'share' });
    expect(again.body.viewUrl).not.toBe(shared.body.viewUrl);
  });

  it('reads an unstarted or started invitation past its expiry as expired', async () => {
    const inv = (await create({ plan: plan(), expiresInDays: 1 })).body;
    const started = (await create({ plan: plan(), expiresInDays: 1 })).body;
    expect((await launch(tokenOf(started.launchUrl), 'start')).status).toBe(200);
    await svc.services.db.pool.query(`UPDATE recording_invitations SET expires_at = now() - interval '1 minute' WHERE id = ANY($1)`, [[inv.id, started.id]]);
    expect((await o.call('GET', `/recording-invitations/${inv.id}`)).body.status).toBe('expired');
    expect((await o.call('GET', `/recording-invitations/${started.id}`)).body.status).toBe('expired');
    const listed = (await o.call('GET', '/recording-invitations')).body.invitations.find((i: any) => i.id === inv.id);
    expect(listed.status).toBe('expired');
    expect((await page(inv.launchUrl)).status).toBe(410);
    const start = await launch(tokenOf(inv.launchUrl), 'start');
    expect(start.status).toBe(422);
    expect(start.body.code).toBe('invitation_expired');
    expect((await launch(tokenOf(started.launchUrl), 'complete')).body.code).toBe('invitation_expired');
  });

  it('answers 404 to another organization, whatever the path', async () => {
    const inv = (await create({ plan: plan() })).body;
    for (const [method, body] of [['GET', undefined], ['PATCH', { action: 'share' }], ['DELETE', undefined]] as const) {
      expect((await other.call(method, `/recording-invitations/${inv.id}`, body)).status).toBe(404);
      expect((await svc.api(method, `${o.P}/recording-invitations/${inv.id}`, { token: other.token, body })).status).toBe(404);
    }
    expect((await other.call('GET', '/recording-invitations')).body.invitations).toEqual([]);
    expect((await o.call('GET', `/recording-invitations/${inv.id}`)).body.viewUrl).toBeNull();
  });

  it('escapes the plan on the launch page', async () => {
    const title = '<script>alert("x")</script> & co';
    const inv = (await create({ plan: plan({ title, steps: [{ instruction: '<img src=x onerror=alert(1)>' }] }) })).body;
    const res = await page(inv.launchUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
    expect(res.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(res.html).not.toContain(title);
    expect(res.html).not.toContain('<img src=x');
    expect(res.html).toContain('getDisplayMedia');
    expect(res.html).toContain('MediaRecorder');
    expect((await page(`${svc.url}/r/${'x'.repeat(43)}`)).status).toBe(404);
  });

  it('records end to end: start, upload two parts, complete, process, view', async () => {
    const inv = (await create({ plan: plan(), studyRef: 'starter-study', externalRef: 'flow' })).body;
    const token = tokenOf(inv.launchUrl);
    expect((await launch(token, 'uploading')).body.code).toBe('recording_not_started');
    expect((await launch(token, 'complete')).body.code).toBe('recording_not_started');

    const start = await launch(token, 'start');
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ session_id: expect.stringMatching(/^int_/), project_key: o.project.public_key });
    expect((await launch(token, 'start')).body).toEqual(start.body);
    expect((await o.call('GET', `/recording-invitations/${inv.id}`)).body).toMatchObject({ status: 'started', interviewRef: null, processing: null });
    const session = start.body.session_id;
    const key = { 'x-project-key': start.body.project_key };

    const upload = await svc.api('POST', '/api/sdk/screen/upload-session/start', { body: { session_id: session }, headers: key });
    expect(upload.status).toBe(200);
    expect((await launch(token, 'uploading')).body).toEqual({ status: 'uploading' });
    expect((await o.call('GET', `/recording-invitations/${inv.id}`)).body.status).toBe('uploading');
    const bytes = webm();
    const half = Math.floor(bytes.length / 2);
    await uploadPart(session, start.body.project_key, 1, bytes.subarray(0, half));
    await uploadPart(session, start.body.project_key, 2, bytes.subarray(half));

    const done = await launch(token, 'complete');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ status: 'completed' });
    expect((await launch(token, 'complete')).body).toEqual({ status: 'completed' });
    expect((await launch(token, 'start')).body.code).toBe('invitation_completed');

    const polled = (await o.call('GET', `/recording-invitations/${inv.id}`)).body;
    expect(polled).toMatchObject({ status: 'completed', interviewRef: session, interviewUrl: `${svc.url}${o.P}/sessions/${session}` });
    expect(['pending', 'processing', 'processed', 'failed']).toContain(polled.processing.status);
    const interview = await svc.api('GET', new URL(polled.interviewUrl).pathname, { token: o.token });
    expect(interview.body.session).toMatchObject({
      source: 'recording',
      status: 'completed',
      interview_mode: 'screen',
      study_ref: expect.stringMatching(/^std_/),
      consent_recording: true,
      consent_data_use: true,
    });
    const artifacts = (await o.call('GET', `/sessions/${session}/artifacts`)).body.artifacts;
    const video = artifacts.find((a: any) => a.name === 'source-video');
    expect(video).toMatchObject({ kind: 'source', mime_type: 'video/webm', size: bytes.length });
    expect(Buffer.from(await (await fetch(video.download_url)).arrayBuffer()).equals(bytes)).toBe(true);
    const { rows: events } = await svc.services.db.pool.query(`SELECT event_type, data FROM interview_events WHERE interview_id = $1`, [session]);
    expect(events).toContainEqual(expect.objectContaining({ event_type: 'consent', data: expect.objectContaining({ invitation_id: inv.id }) }));

    // Offline there is no transcription service: processing gets past the media and stops there.
    const processing = await settled(o.call, session);
    if (processing.status === 'failed') expect(processing.error_code).toBe('transcription_unconfigured');
    expect(artifacts.length).toBeGreaterThan(0);
    expect((await o.call('GET', `/sessions/${session}/artifacts`)).body.artifacts.map((a: any) => a.name)).toContain('audio');
    expect((await o.call('GET', `/recording-invitations/${inv.id}`)).body.processing).toMatchObject({ status: processing.status, evidence_count: 0 });

    const finished = await page(inv.launchUrl);
    expect(finished.status).toBe(200);
    expect(finished.html).toMatch(/complete/);
    const shared = (await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'share' })).body;
    const view = await page(shared.viewUrl);
    expect(view.status).toBe(200);
    const src = /<source src="([^"]+)"/.exec(view.html)![1].replace(/&amp;/g, '&');
    expect(Buffer.from(await (await fetch(src)).arrayBuffer()).equals(bytes)).toBe(true);
    expect((await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'revoke' })).body.code).toBe('invitation_completed');
  });

  it('replaces an interrupted recording when the guest starts again', async () => {
    const inv = (await create({ plan: plan() })).body;
    const token = tokenOf(inv.launchUrl);
    const first = (await launch(token, 'start')).body;
    await svc.api('POST', '/api/sdk/screen/upload-session/start', { body: { session_id: first.session_id }, headers: { 'x-project-key': first.project_key } });
    await launch(token, 'uploading');
    for (const n of [1, 2, 3]) await uploadPart(first.session_id, first.project_key, n, Buffer.from(`stale part ${n}`));
    expect((await page(inv.launchUrl)).html).toMatch(/started but not finished/);

    const again = (await launch(token, 'start')).body;
    expect(again).toEqual(first);
    const { rows } = await svc.services.db.pool.query(`SELECT count(*)::int AS n FROM media_chunks WHERE interview_id = $1`, [first.session_id]);
    expect(rows[0].n).toBe(0);
    const bytes = webm();
    await uploadPart(first.session_id, first.project_key, 1, bytes);
    expect((await launch(token, 'complete')).body).toEqual({ status: 'completed' });
    const video = (await o.call('GET', `/sessions/${first.session_id}/artifact/source-video`)).body;
    expect(video.size).toBe(bytes.length);
  });

  it('records from the launch page in headless Chromium', async () => {
    const inv = (await create({ plan: plan({ title: 'In a browser' }) })).body;
    // Fake devices and an auto-accepted picker stand in for the guest's screen and microphone.
    const browser = await launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--auto-accept-this-tab-capture', '--auto-select-desktop-capture-source=Entire screen']);
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto(inv.launchUrl);
      expect(await tab.title()).toBe('In a browser');
      await tab.click('#start');
      await tab.locator('#status', { hasText: /Recording/ }).waitFor({ timeout: 15_000 });
      await tab.waitForTimeout(2500);
      await tab.click('#finish');
      await tab.locator('#status', { hasText: /sent|could not/ }).waitFor({ timeout: 30_000 });
      expect(await tab.textContent('#status')).toMatch(/has been sent/);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
    const polled = (await o.call('GET', `/recording-invitations/${inv.id}`)).body;
    expect(polled.status).toBe('completed');
    const artifacts = (await o.call('GET', `/sessions/${polled.interviewRef}/artifacts`)).body.artifacts;
    expect(artifacts.find((a: any) => a.name === 'source-video')).toMatchObject({ mime_type: 'video/webm' });
  }, 60_000);

  it('deletes: out of the list, links dead, changes refused', async () => {
    const inv = (await create({ plan: plan() })).body;
    await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'share' });
    const del = await o.call('DELETE', `/recording-invitations/${inv.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: inv.id, status: 'deleted', viewUrl: null });
    expect((await o.call('DELETE', `/recording-invitations/${inv.id}`)).body).toEqual(del.body);
    expect((await o.call('GET', '/recording-invitations')).body.invitations.map((i: any) => i.id)).not.toContain(inv.id);
    expect((await o.call('GET', `/recording-invitations/${inv.id}`)).body.status).toBe('deleted');
    expect((await page(inv.launchUrl)).status).toBe(410);
    expect((await launch(tokenOf(inv.launchUrl), 'start')).body.code).toBe('invitation_deleted');
    expect((await o.call('PATCH', `/recording-invitations/${inv.id}`, { action: 'share' })).body.code).toBe('invitation_deleted');
  });

  it('offers the same operations to agents over MCP', async () => {
    const client = await svc.mcp(o.token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['recordings.create_invitation', 'recordings.create_website_invitation', 'recordings.get_results', 'recordings.update_invitation']));
    expect(names).not.toContain('recordings.start_recording');

    const created = await client.callTool({ name: 'recordings.create_invitation', arguments: { projectRef: o.project.project_ref, plan: plan({ title: 'Via MCP' }), expiresInDays: 3 } });
    expect(created.isError).toBeFalsy();
    const inv = created.structuredContent as Record<string, any>;
    expect(Object.keys(inv).sort()).toEqual([...FIELDS].sort());
    expect(inv).toMatchObject({ projectRef: o.project.project_ref, status: 'invited', plan: { title: 'Via MCP' } });
    expect((await o.call('GET', `/recording-invitations/${inv.id}`)).body).toEqual({ ...inv, processing: null });

    const results = await client.callTool({ name: 'recordings.get_results', arguments: { projectRef: o.project.project_ref, invitationId: inv.id } });
    expect(results.structuredContent).toEqual({ ...inv, processing: null });
    const shared = await client.callTool({ name: 'recordings.update_invitation', arguments: { projectRef: o.project.project_ref, invitationId: inv.id, action: 'share' } });
    expect((shared.structuredContent as any).viewUrl).toMatch(/\/r\/view\//);
    const revoked = await client.callTool({ name: 'recordings.update_invitation', arguments: { projectRef: o.project.project_ref, invitationId: inv.id, action: 'revoke' } });
    expect(revoked.structuredContent).toMatchObject({ status: 'revoked', revoked: true });

    const guest = await client.callTool({ name: 'recordings.create_website_invitation', arguments: { orgHandle: o.orgHandle, targetUrl: 'https://mcp.example.com/' } });
    expect(guest.structuredContent).toMatchObject({ projectRef: `${o.orgHandle}/guest-recordings`, plan: { title: 'Recording of mcp.example.com' } });

    const foreign = await client.callTool({ name: 'recordings.get_results', arguments: { projectRef: other.project.project_ref, invitationId: inv.id } });
    expect(toolError(foreign).status).toBe(404);
  });
});
