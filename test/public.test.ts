import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedInterview, ownerWithProject } from './helpers/fixtures.ts';
import { addressAllowed, safeFetch } from '../core/safe-fetch.ts';
import { redactor } from '../tools/public/redact.ts';

type Owner = Awaited<ReturnType<typeof ownerWithProject>>;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const LONG = 'Long words here. '.repeat(20);

/** The widget snippets the site's home page carries: the projects that run it (their proof of control). */
let embeds: string[] = [];

/** A small website on loopback: a page with metadata, an icon and the widget, an SVG "favicon", and redirects. */
function site(): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    if (req.url === '/') {
      return send(200, 'text/html; charset=utf-8', `<!doctype html><html><head><meta charset="utf-8">
        <title>Acme Shop</title>
        <meta property="og:title" content="Acme &amp; Co &#8212; the &quot;shop&quot;">
        <meta name="description" content="${LONG}">
        <link rel="stylesheet" href="/x.css">
        <link rel="icon" type="image/png" href="/icon.png">
        </head><body>Hello${embeds.join('')}</body></html>`);
    }
    if (req.url === '/plain') {
      return send(200, 'text/html', `<html><head><title>Plain &lt;page&gt; &#x263A;</title><meta name=description content='Just a plain page'>
        <link rel="icon" href="/logo.svg"></head></html>`);
    }
    if (req.url === '/icon.png') return send(200, 'image/png', PNG);
    if (req.url === '/favicon.ico') return send(200, 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    if (req.url === '/redirect') return send(302, 'text/plain', '', { location: 'http://169.254.169.254/latest/meta-data/' });
    if (req.url === '/gone') return send(404, 'text/html', 'gone');
    send(404, 'text/plain', 'not found');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', async () => {
      const port = (server.address() as AddressInfo).port;
      // The same site on two more loopback hosts, listed by other projects.
      const more = ['127.0.0.3', '127.0.0.4'].map((host) => http.createServer((req, res) => server.emit('request', req, res)));
      await Promise.all(more.map((m, i) => new Promise<void>((r) => m.listen(port, ['127.0.0.3', '127.0.0.4'][i], () => r()))));
      server.on('close', () => more.forEach((m) => m.close()));
      resolve({ server, port });
    }),
  );
}

let svc: TestService;
let strict: TestService;
let web: { server: http.Server; port: number };
let a: Owner;
let b: Owner;
let c: Owner;
let member: { token: string };
let admin: { token: string };
let origin: string;
let evidence: number;

const setOrigins = (o: Owner, origins: string[]) => o.call('PATCH', '/studies/starter-study', { allowed_origins: origins });
const publish = (o: Owner, hostname: string, body: Record<string, unknown>) => o.call('PUT', `/public-listings/${hostname}`, body);

beforeAll(async () => {
  web = await site();
  origin = `http://127.0.0.1:${web.port}`;
  [svc, strict] = await Promise.all([
    startTestService({ env: { WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true' } }),
    startTestService(),
  ]);
  a = await ownerWithProject(svc, 'alpha@example.com', 'Alpha Shop');
  b = await ownerWithProject(svc, 'beta@example.com', 'Beta Shop');
  c = await ownerWithProject(svc, 'gamma@example.com', 'Gamma Shop');
  embeds = [a, b, c].map((o) => `<script src="${svc.url}/sdk/widget.js" data-project-key="${o.project.public_key}" async></script>`);
  member = await svc.login('alpha-member@example.com');
  await svc.api('POST', `/api/orgs/${a.orgHandle}/members`, { token: a.token, body: { email: 'alpha-member@example.com' } });
  admin = await svc.login('operator@example.com', { admin: true });

  await importedInterview(svc, a, 'checkout.txt', { participant_name: 'Maria Gonzalez', participant_email: 'maria.gonzalez@example.com' });
  const tom = await a.call('POST', '/sessions', { participant_name: 'Tom Baker', participant_email: 'tom@example.org' });
  await a.call('PATCH', `/sessions/${tom.body.session.id}`, { status: 'completed', summary: 'Tom Baker (tom@example.org) had no trouble.' });
  for (const o of [b, b, c]) {
    const s = await o.call('POST', '/sessions', { participant_name: 'Someone Else' });
    await o.call('PATCH', `/sessions/${s.body.session.id}`, { status: 'completed' });
  }
  evidence = (await a.call('GET', '/signals?limit=1')).body.total;
}, 120_000);
afterAll(async () => {
  web?.server.close();
  await Promise.all([svc?.stop(), strict?.stop()]);
});

describe('listing domains', () => {
  it('lists no domain before a study names an origin, then the study origins with whole-project counts', async () => {
    const empty = await a.call('GET', '/public-listings');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ can_manage: true, has_real_payment: false, domains: [] });

    expect((await setOrigins(a, [origin, `http://localhost:${web.port}`])).status).toBe(200);
    const res = await a.call('GET', '/public-listings');
    expect(res.body.domains).toEqual([
      { hostname: '127.0.0.1', suggested_url: `${origin}/`, interview_count: 2, evidence_count: evidence, listing: null, available: true },
      { hostname: 'localhost', suggested_url: `http://localhost:${web.port}/`, interview_count: 2, evidence_count: evidence, listing: null, available: true },
    ]);
    expect(evidence).toBeGreaterThan(0);
    const asMember = await svc.api('GET', `${a.P}/public-listings`, { token: member.token });
    expect(asMember.body.can_manage).toBe(false);
  });

  it('reports has_real_payment from an active billing account', async () => {
    const pool = svc.services.db.pool;
    const { rows } = await pool.query(`SELECT to_regclass('public.billing_accounts') IS NOT NULL AS present`);
    if (!rows[0].present) return;
    await pool.query(
      `INSERT INTO billing_accounts (organization_id, payment_status) SELECT id, 'active' FROM organizations WHERE handle = $1
       ON CONFLICT (organization_id) DO UPDATE SET payment_status = 'active'`,
      [b.orgHandle],
    );
    expect((await b.call('GET', '/public-listings')).body.has_real_payment).toBe(true);
    expect((await a.call('GET', '/public-listings')).body.has_real_payment).toBe(false);
  });
});

describe('preview', () => {
  it('reads og:title and the description with entities decoded and lengths capped', async () => {
    const res = await a.call('POST', '/public-listings/preview', { url: `${origin}/` });
    expect(res.status).toBe(200);
    expect(res.body.hostname).toBe('127.0.0.1');
    expect(res.body.destination_url).toBe(`${origin}/`);
    expect(res.body.title).toBe('Acme & Co — the "shop"');
    expect(res.body.description).toHaveLength(280);
    expect(res.body.description.endsWith('…')).toBe(true);
    const plain = await a.call('POST', '/public-listings/preview', { url: `http://localhost:${web.port}/plain` });
    expect(plain.body).toEqual({ hostname: 'localhost', destination_url: `http://localhost:${web.port}/plain`, title: 'Plain <page> ☺', description: 'Just a plain page' });
  });

  it('refuses a redirect to the metadata address, and says when the page is missing', async () => {
    const res = await a.call('POST', '/public-listings/preview', { url: `${origin}/redirect` });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'url_not_allowed', retryable: false });
    expect((await a.call('POST', '/public-listings/preview', { url: `${origin}/gone` })).body.code).toBe('page_unreachable');
    expect((await a.call('POST', '/public-listings/preview', { url: 'not a url' })).status).toBe(400);
  });

  it('refuses internal addresses when loopback is not allowed', async () => {
    const o = await ownerWithProject(strict, 'ssrf@example.com');
    const refused = [
      'http://127.0.0.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/', 'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd', 'http://10.0.0.1/', 'http://[::127.0.0.1]/', 'http://0.0.0.0/', 'http://[fd00:ec2::254]/', 'gopher://127.0.0.1/',
      `http://localhost:${web.port}/`, `${origin}/`,
    ];
    for (const url of refused) {
      const res = await o.call('POST', '/public-listings/preview', { url });
      expect(res.status, url).toBe(422);
      expect(res.body, url).toMatchObject({ code: 'url_not_allowed', retryable: false });
      expect(res.body.error, url).toMatch(/cannot be fetched/);
    }
  });

  it('safeFetch refuses IPv4-compatible IPv6 and DNS names of loopback', async () => {
    expect(addressAllowed('::7f00:1', true)).toBe(false);
    expect(addressAllowed('::1', true)).toBe(true);
    expect(addressAllowed('::1')).toBe(false);
    expect(addressAllowed('93.184.216.34')).toBe(true);
    await expect(safeFetch(`http://localhost:${web.port}/`)).rejects.toMatchObject({ code: 'url_not_allowed' });
    await expect(safeFetch(`${origin}/redirect`, { allowLoopback: true })).rejects.toMatchObject({ code: 'url_not_allowed' });
    expect((await safeFetch(`${origin}/icon.png`, { allowLoopback: true })).body.equals(PNG)).toBe(true);
  });
});

describe('publishing', () => {
  let iconUrl: string;

  it('publishes only a site that runs the project\'s widget', async () => {
    const kept = embeds;
    embeds = [embeds[1]];
    const unproven = await publish(a, '127.0.0.1', { destination_url: `${origin}/`, title: 'Acme & Co', description: 'Shop research, in the open.' });
    expect(unproven).toMatchObject({ status: 422, body: { code: 'domain_not_verified', action: expect.stringContaining('widget') } });
    expect((await a.call('GET', '/public-listings')).body.domains.find((d: any) => d.hostname === '127.0.0.1').listing).toBeNull();
    embeds = kept;
  });

  it('publishes with the site icon stored and served', async () => {
    const res = await publish(a, '127.0.0.1', { destination_url: `${origin}/`, title: 'Acme & Co', description: 'Shop research, in the open.' });
    expect(res.status).toBe(200);
    const l = res.body.listing;
    expect(l).toMatchObject({ hostname: '127.0.0.1', destination_url: `${origin}/`, title: 'Acme & Co', description: 'Shop research, in the open.', status: 'published', interview_count: 2, evidence_count: evidence });
    expect(Object.keys(l).sort()).toEqual(['description', 'destination_url', 'evidence_count', 'hostname', 'icon_url', 'interview_count', 'published_at', 'status', 'title', 'updated_at']);
    expect(l.published_at).toEqual(expect.any(String));
    expect(l.icon_url).toMatch(new RegExp(`^${svc.url}/api/public/leaderboard/icons/127\\.0\\.0\\.1/[0-9a-f]{20}\\.png$`));
    iconUrl = l.icon_url;
    const icon = await fetch(iconUrl);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(icon.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await icon.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(iconUrl.replace(/[0-9a-f]{20}/, '0'.repeat(20)))).status).toBe(404);
    expect((await fetch(`${svc.url}/api/public/leaderboard/icons/localhost/x.png`)).status).toBe(404);

    const updated = await publish(a, '127.0.0.1', { destination_url: `${origin}/`, title: 'Acme & Co', description: 'Updated.' });
    expect(updated.body.listing).toMatchObject({ description: 'Updated.', published_at: l.published_at, icon_url: iconUrl });
  });

  it('refuses an SVG icon (icon_url null) and shows the listing in the domain list', async () => {
    const res = await publish(a, 'localhost', { destination_url: `http://localhost:${web.port}/plain`, title: 'Plain', description: 'The plain page.' });
    expect(res.status).toBe(200);
    expect(res.body.listing.icon_url).toBeNull();
    const domains = (await a.call('GET', '/public-listings')).body.domains;
    expect(domains.map((d: any) => [d.hostname, d.listing?.status, d.suggested_url])).toEqual([
      ['127.0.0.1', 'published', `${origin}/`],
      ['localhost', 'published', `http://localhost:${web.port}/plain`],
    ]);
  });

  it('checks bounds, the destination host, the project\'s domains and the role', async () => {
    const ok = { destination_url: `${origin}/`, title: 'T', description: 'D' };
    for (const body of [{ ...ok, title: '' }, { ...ok, title: 'x'.repeat(101) }, { ...ok, description: 'x'.repeat(281) }, { ...ok, description: '' }, { title: 'T', description: 'D' }, { ...ok, extra: 1 }]) {
      const res = await publish(a, '127.0.0.1', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await publish(a, '127.0.0.1', { ...ok, title: 'x'.repeat(100), description: 'y'.repeat(280) })).status).toBe(200);
    const elsewhere = await publish(a, '127.0.0.1', { ...ok, destination_url: 'https://evil.example.com/' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toMatch(/destination_url/);
    const notOurs = await publish(a, 'www.example.com', { ...ok, destination_url: 'https://www.example.com/' });
    expect(notOurs.status).toBe(422);
    expect(notOurs.body.code).toBe('hostname_not_a_project_domain');
    expect((await a.call('PUT', '/public-listings/not_a_host!', ok)).status).toBe(400);
    const byMember = await svc.api('PUT', `${a.P}/public-listings/127.0.0.1`, { token: member.token, body: ok });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe('role_required');
    expect((await svc.api('POST', `${a.P}/public-listings/127.0.0.1/unpublish`, { token: member.token })).status).toBe(403);
  });

  it('answers 409 for a hostname another project lists, and marks it unavailable', async () => {
    await setOrigins(b, [origin, `http://127.0.0.3:${web.port}`]);
    const res = await publish(b, '127.0.0.1', { destination_url: `${origin}/`, title: 'Mine', description: 'Not really.' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('hostname_taken');
    const domains = (await b.call('GET', '/public-listings')).body.domains;
    expect(domains.find((d: any) => d.hostname === '127.0.0.1')).toMatchObject({ listing: null, available: false, interview_count: 2, evidence_count: 0 });
    expect(JSON.stringify(domains)).not.toMatch(/Acme/);
    expect((await b.call('POST', '/public-listings/127.0.0.1/unpublish')).status).toBe(404);
  });

  it('unpublishes, and another project may then claim the hostname', async () => {
    await setOrigins(c, [`http://127.0.0.4:${web.port}`, `http://localhost:${web.port}`]);
    const res = await a.call('POST', '/public-listings/localhost/unpublish');
    expect(res.status).toBe(200);
    expect(res.body.listing).toMatchObject({ hostname: 'localhost', status: 'unpublished', published_at: null });
    expect((await a.call('POST', '/public-listings/localhost/unpublish')).body.listing.status).toBe('unpublished');
    expect((await c.call('GET', '/public-listings')).body.domains.find((d: any) => d.hostname === 'localhost').available).toBe(true);
    const claimed = await publish(c, 'localhost', { destination_url: `http://localhost:${web.port}/`, title: 'Gamma', description: 'Gamma site.' });
    expect(claimed.status).toBe(200);
    expect(claimed.body.listing).toMatchObject({ interview_count: 1, evidence_count: 0 });
    expect((await publish(a, 'localhost', { destination_url: `http://localhost:${web.port}/`, title: 'Back', description: 'Back.' })).status).toBe(409);
    expect((await c.call('POST', '/public-listings/localhost/unpublish')).status).toBe(200);
    expect((await publish(a, 'localhost', { destination_url: `http://localhost:${web.port}/plain`, title: 'Plain', description: 'The plain page.' })).status).toBe(200);
  });
});

describe('leaderboard', () => {
  it('ranks by evidence, then interviews, then first published, with totals over projects', async () => {
    expect((await publish(c, '127.0.0.4', { destination_url: `http://127.0.0.4:${web.port}/`, title: 'Gamma', description: 'Gamma.' })).status).toBe(200);
    expect((await publish(b, '127.0.0.3', { destination_url: `http://127.0.0.3:${web.port}/`, title: 'Beta', description: 'Beta.' })).status).toBe(200);
    const res = await svc.api('GET', '/api/public/leaderboard');
    expect(res.status).toBe(200);
    expect(res.body.listings.map((l: any) => [l.rank, l.hostname, l.evidence_count, l.interview_count])).toEqual([
      [1, '127.0.0.1', evidence, 2],
      [2, 'localhost', evidence, 2],
      [3, '127.0.0.3', 0, 2],
      [4, '127.0.0.4', 0, 1],
    ]);
    expect(res.body.total).toBe(4);
    expect(res.body.totals).toEqual({ projects: 3, interviews: 5, evidence });
    const first = res.body.listings[0];
    expect(Object.keys(first).sort()).toEqual(['description', 'destination_url', 'evidence_count', 'hostname', 'icon_url', 'interview_count', 'published_at', 'rank', 'title', 'updated_at']);
    expect(first.icon_url).toMatch(/\/api\/public\/leaderboard\/icons\/127\.0\.0\.1\//);

    const page = await svc.api('GET', '/api/public/leaderboard?limit=2&offset=1');
    expect(page.body.listings.map((l: any) => [l.rank, l.hostname])).toEqual([[2, 'localhost'], [3, '127.0.0.3']]);
    expect(page.body.total).toBe(4);
    expect((await svc.api('GET', '/api/public/leaderboard?offset=10')).body).toMatchObject({ listings: [], total: 4 });
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'limit=1.5', 'other=1']) {
      expect((await svc.api('GET', `/api/public/leaderboard?${q}`)).status, q).toBe(400);
    }
    expect((await svc.api('GET', '/api/public/leaderboard?limit=100')).status).toBe(200);
  });
});

describe('suspension by an operator', () => {
  it('suspends (off the leaderboard, not republishable) and reinstates to unpublished', async () => {
    const path = '/api/admin/public-listings/localhost';
    expect((await svc.api('POST', `${path}/suspend`, { token: a.token, body: { reason: 'Spam' } })).status).toBe(403);
    expect((await svc.api('POST', `${path}/suspend`, { body: { reason: 'Spam' } })).status).toBe(401);
    expect((await svc.api('POST', `${path}/suspend`, { token: admin.token, body: {} })).status).toBe(400);
    expect((await svc.api('POST', '/api/admin/public-listings/nowhere.example/suspend', { token: admin.token, body: { reason: 'x' } })).status).toBe(404);

    const res = await svc.api('POST', `${path}/suspend`, { token: admin.token, body: { reason: 'Misleading description' } });
    expect(res.status).toBe(200);
    expect(res.body.listing).toMatchObject({ hostname: 'localhost', status: 'suspended', published_at: null });
    expect(res.body.suspension).toMatchObject({ reason: 'Misleading description' });
    const board = (await svc.api('GET', '/api/public/leaderboard')).body;
    expect(board.listings.map((l: any) => [l.rank, l.hostname])).toEqual([[1, '127.0.0.1'], [2, '127.0.0.3'], [3, '127.0.0.4']]);
    expect(board.total).toBe(3);

    const again = await publish(a, 'localhost', { destination_url: `http://localhost:${web.port}/`, title: 'Back', description: 'Back.' });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: 'listing_suspended', retryable: false });
    expect(again.body.error).toMatch(/Misleading description/);
    expect((await a.call('POST', '/public-listings/localhost/unpublish')).body.code).toBe('listing_suspended');
    expect((await publish(c, 'localhost', { destination_url: `http://localhost:${web.port}/`, title: 'Gamma', description: 'Gamma.' })).status).toBe(409);
    expect((await a.call('GET', '/public-listings')).body.domains.find((d: any) => d.hostname === 'localhost').listing.status).toBe('suspended');

    expect((await svc.api('POST', `${path}/reinstate`, { token: b.token })).status).toBe(403);
    const back = await svc.api('POST', `${path}/reinstate`, { token: admin.token });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ listing: { status: 'unpublished' }, suspension: null });
    expect((await svc.api('POST', `${path}/reinstate`, { token: admin.token })).body.listing.status).toBe('unpublished');
    expect((await publish(a, 'localhost', { destination_url: `http://localhost:${web.port}/`, title: 'Back', description: 'Back.' })).body.listing.status).toBe('published');
  });
});

describe('publication and the public project view', () => {
  const publicPath = () => `/api/public/orgs/${a.orgHandle}/projects/${a.project.handle}`;

  it('is off by default and answers 404 like a missing project', async () => {
    expect((await a.call('GET', '/publication')).body).toEqual({ enabled: false, public_url: `${svc.url}${publicPath()}` });
    const off = await svc.api('GET', publicPath());
    expect(off.status).toBe(404);
    const missing = await svc.api('GET', `/api/public/orgs/${a.orgHandle}/projects/no-such-project`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(off.body.error);
    expect(missing.body.code).toBe(off.body.code);
  });

  it('lets owners and admins turn it on, not members', async () => {
    expect((await svc.api('PATCH', `${a.P}/publication`, { token: member.token, body: { enabled: true } })).status).toBe(403);
    expect((await svc.api('GET', `${a.P}/publication`, { token: member.token })).body.enabled).toBe(false);
    expect((await a.call('PATCH', '/publication', {})).status).toBe(400);
    expect((await a.call('PATCH', '/publication', { enabled: 'yes' })).status).toBe(400);
    const res = await a.call('PATCH', '/publication', { enabled: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: true, public_url: `${svc.url}${publicPath()}` });
    expect((await a.call('GET', '/publication')).body.enabled).toBe(true);
  });

  it('shows exactly SPEC 2.3 with no participant names or e-mail addresses', async () => {
    const signals = (await a.call('GET', '/signals?limit=200')).body.signals;
    await a.call('PATCH', `/sessions/${signals[0].session_id}`, { summary: 'Maria Gonzalez (maria.gonzalez@example.com) lost her discount code; maria said so twice.' });
    const finding = await a.call('POST', '/findings/from-evidence', { title: 'Maria could not find the discount field', evidence_refs: [signals[0].id, signals[1].id] });
    expect(finding.status).toBe(201);
    await a.call('POST', `/signals/${signals[2].id}/dismiss`, { reason: 'duplicate' });

    const res = await svc.api('GET', publicPath());
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual(['evidence', 'findings', 'interviews', 'project', 'studies', 'totals']);
    expect(body.project).toEqual({ name: 'Alpha Shop', description: null, org_handle: a.orgHandle, project_handle: a.project.handle });
    expect(body.totals).toEqual({ studies: 1, interviews: 2, evidence: evidence - 1, findings: 1 });
    expect(body.studies).toHaveLength(1);
    expect(body.studies[0]).toMatchObject({ study_ref: 'starter-study', title: expect.any(String), status: 'active', goal_count: expect.any(Number) });
    expect(Object.keys(body.studies[0]).sort()).toEqual(['description', 'goal_count', 'status', 'study_ref', 'title']);
    expect(body.interviews.map((i: any) => i.source_label)).toEqual(['Participant 1', 'Participant 2']);
    for (const i of body.interviews) expect(Object.keys(i).sort()).toEqual(['analysis_summary', 'completed_at', 'duration_seconds', 'evidence_count', 'source_label', 'study_ref']);
    expect(body.interviews[0]).toMatchObject({ evidence_count: evidence - 1, completed_at: expect.any(String) });
    expect(body.interviews[0].analysis_summary).toBe('[participant] ([email]) lost her discount code; maria said so twice.');
    expect(body.interviews[1]).toMatchObject({ source_label: 'Participant 2', evidence_count: 0, analysis_summary: '[participant] ([email]) had no trouble.' });
    expect(body.evidence).toHaveLength(evidence - 1);
    for (const e of body.evidence) {
      expect(Object.keys(e).sort()).toEqual(['claim', 'confidence', 'headline', 'observed_facts', 'page_title', 'quote', 'signal_type', 'source_label']);
      expect(e.source_label).toBe('Participant 1');
      expect(Array.isArray(e.observed_facts)).toBe(true);
    }
    const quotes = signals.filter((s: any) => s.id !== signals[2].id).map((s: any) => s.quote).sort();
    expect(body.evidence.map((e: any) => e.quote).sort()).toEqual(quotes);
    expect(body.findings).toEqual([{ title: '[participant] could not find the discount field', description: null, status: 'draft', priority_label: 'medium', priority_score: 50, evidence_count: 2, interview_count: 1 }]);

    const text = JSON.stringify(body);
    for (const secret of ['Maria', 'Gonzalez', 'Tom Baker', 'Baker', 'example.com', 'example.org', '@', 'int_', 'sig_', 'std_', a.userId]) expect(text).not.toContain(secret);
  });

  it('goes back to 404 when turned off', async () => {
    expect((await a.call('PATCH', '/publication', { enabled: false })).body.enabled).toBe(false);
    expect((await svc.api('GET', publicPath())).status).toBe(404);
  });
});

describe('redaction', () => {
  it('removes full names in any case and name parts as written', () => {
    const clean = redactor([{ name: 'Will Page', email: 'will@page.io' }, { name: null, email: null }]);
    expect(clean('Will Page said: will you page me? WILL PAGE, will@page.io, other@x.com')).toBe('[participant] said: will you page me? [participant], [email], [email]');
    expect(clean('Hi Will, and Page.')).toBe('Hi [participant], and [participant].');
    expect(redactor([])('Nothing to see')).toBe('Nothing to see');
  });
});

describe('over MCP', () => {
  it('offers the project tools and answers them', async () => {
    const mcp = await svc.mcp(a.token);
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    for (const n of ['listings.list', 'listings.preview', 'listings.publish', 'listings.unpublish', 'projects.get_publication', 'projects.set_publication']) expect(names).toContain(n);
    expect(names).not.toContain('public.leaderboard');
    expect(names).not.toContain('admin.suspend_listing');
    const res = await mcp.callTool({ name: 'listings.list', arguments: { projectRef: a.project.project_ref } });
    expect((res.structuredContent as any).domains.map((d: any) => d.hostname)).toEqual(['127.0.0.1', 'localhost']);
    const pub = await mcp.callTool({ name: 'projects.get_publication', arguments: { projectRef: a.project.project_ref } });
    expect(pub.structuredContent).toMatchObject({ enabled: false });
  });
});
