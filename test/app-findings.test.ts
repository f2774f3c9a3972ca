import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { smtpInbox, type Inbox } from './helpers/smtp.ts';
import { launchBrowser } from './helpers/browser.ts';
import { accessible, createProject, shots, signIn } from './helpers/workspace.ts';
import { fakeGithub, type FakeGithub } from './helpers/fake-github.ts';
import { importedInterview } from './helpers/fixtures.ts';

/** Findings in the workspace: a board, a finding made from picked evidence, sent to a loopback GitHub; and the evidence chart on the home. */

let svc: TestService;
let inbox: Inbox;
let browser: Browser;
let gh: FakeGithub;
let front: http.Server;

/**
 * The fake GitHub, fronted by the OAuth endpoints a person's account link uses: the person
 * `acme` gets the user token (ghu_acme) that manages installation 77 there.
 */
async function githubWithOAuth(): Promise<string> {
  front = http.createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    let body = '';
    for await (const c of req) body += c;
    const json = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (url.pathname === '/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'granted');
      back.searchParams.set('state', url.searchParams.get('state')!);
      return void res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token') return json(200, { access_token: 'ghu_acme', token_type: 'bearer' });
    if (url.pathname === '/user') return json(200, { id: 4711, login: 'acme' });
    const headers: Record<string, string> = {};
    for (const h of ['authorization', 'content-type', 'accept']) if (req.headers[h]) headers[h] = String(req.headers[h]);
    const answer = await fetch(gh.url + req.url, { method: req.method, headers, body: body || undefined });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  inbox = await smtpInbox();
  gh = await fakeGithub();
  const base = await githubWithOAuth();
  svc = await startTestService({
    env: {
      SMTP_URL: inbox.url,
      WORKER: 'on',
      CODEHOST_APP_ID: gh.appId,
      CODEHOST_APP_PRIVATE_KEY: gh.privateKeyPem,
      CODEHOST_APP_SLUG: 'verbatim-test',
      CODEHOST_APP_URL: base,
      CODEHOST_API_URL: base,
      CODEHOST_CLIENT_ID: 'codehost-app',
      CODEHOST_CLIENT_SECRET: 's',
      CODEHOST_AUTHORIZE_URL: `${base}/authorize`,
      CODEHOST_TOKEN_URL: `${base}/token`,
    },
  });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await inbox?.close();
  await gh?.close();
  front?.close();
});

/** Links the person's GitHub account, attaches installation 77 and binds acme/shop: all through the public routes. */
async function connectGithub(token: string, P: string) {
  const call = (method: string, path: string, body?: unknown) => svc.api(method, `${P}${path}`, { token, body });
  const start = await fetch(`${svc.url}/api/auth/codehost/login?return_to=/settings`, { redirect: 'manual', headers: { cookie: `auth_token=${token}` } });
  expect(start.status).toBe(302);
  const flow = /verbatim_link=[^;]+/.exec(start.headers.get('set-cookie') ?? '')![0];
  const back = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  expect((await fetch(back.headers.get('location')!, { redirect: 'manual', headers: { cookie: flow } })).status).toBe(302);
  const state = new URL((await call('GET', '/codehost-app/install')).body.install_url).searchParams.get('state')!;
  expect((await svc.api('GET', `/api/codehost/app/setup?installation_id=77&setup_action=install&state=${state}`, { token })).status).toBe(200);
  expect((await call('POST', '/codehost-app/select-repo', { repo: 'acme/shop' })).status).toBe(200);
}

describe('findings in the workspace', () => {
  it('makes a finding from two picked cards, prioritises, reviews and sends it to GitHub; the home charts the evidence', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const crashes: string[] = [];
    page.on('pageerror', (e) => crashes.push(e.message));
    await signIn(page, svc, inbox, 'ada@example.com');
    const { org, project } = await createProject(page, 'Checkout findings');
    const { token } = await svc.login('ada@example.com');
    const P = `/api/orgs/${org}/projects/${project}`;
    const call = (method: string, path: string, body?: unknown) => svc.api(method, `${P}${path}`, { token, body });
    await importedInterview(svc, { token, P, call } as never, 'checkout.txt');
    const cards = (await call('GET', '/signals?limit=200')).body;
    expect(cards.total).toBeGreaterThanOrEqual(2);

    // The board, and a finding from two cards picked in the evidence picker.
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Findings' }).click();
    await page.getByRole('heading', { name: 'Findings', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New finding' }).click();
    await page.getByLabel('Title').fill('Discount code is hard to find');
    const picker = page.getByRole('group', { name: 'Evidence' });
    await picker.getByRole('checkbox').first().waitFor();
    await picker.getByLabel('Search evidence').fill('discount');
    await picker.getByRole('status').filter({ hasText: 'matching' }).waitFor();
    const boxes = picker.getByRole('checkbox');
    expect(await boxes.count()).toBeGreaterThanOrEqual(2);
    for (const text of await picker.locator('li').allTextContents()) expect(text).toMatch(/discount/i);
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'selected' }).textContent()).toMatch(/^2 selected/);
    await accessible(page, 'findings-new');
    await page.getByRole('button', { name: 'Create finding from 2 evidence' }).click();
    const draft = page.locator('section[data-state=draft] li', { hasText: 'Discount code is hard to find' });
    await draft.waitFor();
    expect(await draft.locator('[data-count=evidence]').textContent()).toBe('2 evidence cards');
    expect(await draft.locator('[data-count=interviews]').textContent()).toBe('1 interview');

    // Priority, then review: the card moves to the reviewed column.
    await draft.getByLabel('Priority of Discount code is hard to find').selectOption('critical');
    await draft.locator('.badge.priority-critical').waitFor();
    // A finding written without evidence cannot be reviewed: the API's refusal is shown in words.
    await page.getByRole('button', { name: 'New finding' }).click();
    await page.getByLabel('Title').fill('A hunch');
    await page.getByRole('button', { name: 'Create finding', exact: true }).click();
    const hunch = page.locator('section[data-state=draft] li', { hasText: 'A hunch' });
    await hunch.getByRole('button', { name: 'Mark reviewed: A hunch' }).click();
    const renamed = page.locator('section[data-state=draft] li', { hasText: 'A hunch about paying' });
    expect(await hunch.getByRole('alert').textContent()).toMatch(/needs evidence before it can be reviewed.*Attach evidence/);
    // Evidence added on its page updates the counts, on the page and on the board; then it can be reviewed.
    await hunch.getByRole('link', { name: 'A hunch' }).click();
    await page.getByRole('heading', { name: 'A hunch', level: 1 }).waitFor();
    // Its title and description are written on its page.
    await page.getByRole('button', { name: 'Edit title and description' }).click();
    const edit = page.getByRole('form', { name: 'Edit the finding' });
    await edit.getByLabel('Title').fill('A hunch about paying');
    await edit.getByLabel('Description').fill('Paying seems to stall at the card step.');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'A hunch about paying', level: 1 }).waitFor();
    await page.getByText('Paying seems to stall at the card step.').waitFor();
    await page.getByRole('button', { name: 'Add evidence' }).click();
    await page.getByLabel('Search evidence').fill('pay');
    await page.getByRole('status').filter({ hasText: 'matching' }).waitFor();
    await page.getByRole('group', { name: 'Evidence' }).getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Add 1 to the finding' }).click();
    await expect.poll(() => page.locator('[data-count=evidence]').textContent()).toBe('1 evidence card');
    expect(await page.locator('section[aria-labelledby=evidence] blockquote').count()).toBe(1);
    await page.getByRole('link', { name: '← All findings' }).click();
    expect(await renamed.locator('[data-count=evidence]').textContent()).toBe('1 evidence card');
    await renamed.getByRole('button', { name: 'Mark reviewed: A hunch about paying' }).click();
    await page.locator('section[data-state=reviewed] li', { hasText: 'A hunch about paying' }).waitFor();
    await page.getByRole('button', { name: 'Mark reviewed: Discount code is hard to find' }).click();
    const reviewed = page.locator('section[data-state=reviewed] li', { hasText: 'Discount code is hard to find' });
    await reviewed.waitFor();
    expect(await reviewed.locator('.badge').textContent()).toBe('critical');
    await accessible(page, 'findings-board');
    await shots(page, 'findings-board');

    // Its detail: the evidence, and sending it; with no repository bound, the envelope says what to do.
    await reviewed.getByRole('link', { name: 'Discount code is hard to find' }).click();
    await page.getByRole('heading', { name: 'Discount code is hard to find', level: 1 }).waitFor();
    const quotes = await page.locator('section[aria-labelledby=evidence] blockquote').allTextContents();
    expect(quotes).toHaveLength(2);
    for (const q of quotes) expect(q).toMatch(/discount/i);
    // Each says who said it and leads to the moment; the priority is said once, by its control.
    const origin = page.locator('section[aria-labelledby=evidence] li').first();
    expect(await origin.getByRole('link', { name: /Open the interview/ }).getAttribute('href')).toMatch(new RegExp(`/interviews/int_\\w+`));
    expect(await page.locator('.finding-head .badge').count()).toBe(0);
    await page.getByRole('button', { name: 'Send to GitHub' }).click();
    const refusal = page.locator('section[aria-labelledby=delivery]').getByRole('alert');
    expect(await refusal.textContent()).toMatch(/no code-host repository.*Integrations in the project's settings/);
    // The way there is a link to the settings' integrations.
    expect(await page.getByRole('link', { name: "Open the project's integration settings" }).getAttribute('href')).toMatch(/\/settings#integrations$/);
    expect(await page.locator('[data-delivery-state]').textContent()).toBe('Not sent');

    await connectGithub(token, P);
    await page.getByRole('button', { name: 'Send to GitHub' }).click();
    const issue = page.getByRole('link', { name: 'Issue #1' });
    await issue.waitFor();
    expect(await issue.getAttribute('href')).toBe(gh.issues[0].html_url);
    expect(gh.issues[0]).toMatchObject({ owner: 'acme', repo: 'shop', title: 'Discount code is hard to find' });
    await expect.poll(() => page.locator('[data-delivery-state]').textContent()).toBe('Awaiting product triage');
    expect(await page.locator('li[data-provider=github]').textContent()).toMatch(/acme\/shop · Sent/);
    // Sent once: GitHub is no longer offered, and a reload still shows the issue.
    expect(await page.getByRole('button', { name: 'Send to GitHub' }).count()).toBe(0);
    await page.reload();
    await page.getByRole('link', { name: 'Issue #1' }).waitFor();
    await accessible(page, 'finding-detail');
    await shots(page, 'finding-detail');

    // The home charts the evidence by week, with the numbers as a table.
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Home' }).click();
    const figure = page.locator('figure.chart');
    await figure.locator('canvas').first().waitFor();
    await page.getByText('The numbers, as a table').click();
    const total = page.locator('.chart-table tbody tr td').last();
    expect(await total.textContent()).toBe(String(cards.total));
    const types = new Set<string>(cards.signals.map((s: { signal_type: string }) => s.signal_type.replace(/_/g, ' ')));
    expect(await page.locator('.chart-table thead th').count()).toBe(types.size + 2);
    await page.getByLabel('By surface').check();
    const surfaces = new Set<string>(cards.signals.map((s: { target_surface: string }) => s.target_surface));
    await expect.poll(() => page.locator('.chart-table thead th').count()).toBe(surfaces.size + 2);
    expect(await page.locator('.chart-table tbody tr td').last().textContent()).toBe(String(cards.total));
    await accessible(page, 'home-chart');
    await shots(page, 'home-chart');
    await page.emulateMedia({ colorScheme: 'dark' });
    await accessible(page, 'home-chart-dark');
    await page.goto(`${svc.url}/app/p/${org}/${project}/findings`);
    await page.getByRole('heading', { name: 'Findings', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Close: A hunch' }).click();
    await page.locator('section[data-state=closed] li', { hasText: 'A hunch' }).waitFor();
    await accessible(page, 'findings-board-dark');
    await shots(page, 'findings-board-dark');
    expect(crashes).toEqual([]);
    await page.close();
  }, 240_000);
});
