import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { smtpInbox, type Inbox } from './helpers/smtp.ts';
import { ARTIFACTS, launchBrowser } from './helpers/browser.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';
import { fakeGithub } from './helpers/fake-github.ts';
import { fakeLinear } from './helpers/fake-linear.ts';
import { accessible, createProject, shots, signIn as signInAs } from './helpers/workspace.ts';

/** The project settings page at /app/p/:org/:project/settings, in Chromium, as an owner uses it. */

const KEY = 'sk-settings-test-4821';
let svc: TestService;
let inbox: Inbox;
let browser: Browser;
let context: BrowserContext;
let provider: FakeOpenAI;
let site: { url: string; close: () => Promise<void> } | null = null;

beforeAll(async () => {
  inbox = await smtpInbox();
  provider = await fakeOpenAI(KEY);
  svc = await startTestService({ env: { SMTP_URL: inbox.url, WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });
}, 120_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.close();
  await svc?.stop();
  await provider?.close();
  await inbox?.close();
});

/** A customer's page on its own loopback origin carrying the given HTML in its body. */
async function customerPage(body: string) {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>${body}</body></html>`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pricing`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

describe('project settings', () => {
  let page: Page;
  let org: string;
  let project: string;

  it('sets a model key that is never shown back, and sees it work against the provider', async () => {
    page = await context.newPage();
    await signInAs(page, svc, inbox, 'ola@example.com');
    ({ org, project } = await createProject(page, 'Pricing research'));
    // A new project's home says how to start, each step a link (walkthrough 46); the widget's leads to its part of the settings.
    await page.getByRole('link', { name: 'Import a transcript or upload a recording' }).waitFor();
    await page.getByRole('link', { name: 'Put the widget on your site' }).click();
    await page.waitForURL(/\/settings#widget$/);
    const widgetHeading = page.getByRole('heading', { name: 'The widget', level: 2 });
    await expect.poll(() => widgetHeading.evaluate((h: any) => h.getBoundingClientRect().top > -2 && h.getBoundingClientRect().top < (globalThis as any).innerHeight / 2)).toBe(true);
    await page.goto(page.url().replace(/#widget$/, ''));
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(/\/settings$/);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const keys = section(page, 'Model keys');
    await expect.poll(() => keys.getByTestId('stored-key').textContent()).toBe('not set');

    // A bad provider address says why, and the field keeps what was typed.
    await keys.getByLabel('Provider address').fill('ftp://example.com/v1');
    await keys.getByRole('button', { name: 'Save provider' }).click();
    await keys.getByRole('alert').waitFor();
    expect(await keys.getByRole('alert').textContent()).toMatch(/openai_base_url.*http\(s\) URL/);
    expect(await keys.getByLabel('Provider address').inputValue()).toBe('ftp://example.com/v1');

    await keys.getByLabel('Provider address').fill(provider.url);
    await keys.getByLabel('Chat model').fill('gpt-test');
    await keys.getByRole('button', { name: 'Save provider' }).click();
    await keys.getByText('Saved.').waitFor();

    // A key too short is refused and kept in the field.
    await keys.getByLabel('API key').fill('short');
    await keys.getByRole('button', { name: 'Save key' }).click();
    await keys.getByRole('alert').waitFor();
    expect(await keys.getByRole('alert').textContent()).toMatch(/at least 8 characters/);
    expect(await keys.getByLabel('API key').inputValue()).toBe('short');

    await keys.getByLabel('API key').fill(KEY);
    await keys.getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => keys.getByTestId('stored-key').textContent()).toBe('stored (••••4821)');
    expect(await keys.getByLabel('Replace the API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain(KEY);
    expect(await keys.getByTestId('key-health').textContent()).toBe('Stored, not tried yet.');
    await keys.getByRole('button', { name: 'Check the key now' }).click();
    await expect.poll(() => keys.getByTestId('key-health').textContent()).toMatch(/^Working: the provider accepted the key/);
    expect(provider.calls.some((c) => c.path === '/models' && c.auth === `Bearer ${KEY}`)).toBe(true);
    await accessible(page, 'settings');

    // A provider that stops accepting the key shows up as a failing check, in words.
    provider.status = 503;
    await keys.getByRole('button', { name: 'Check the key now' }).click();
    await expect.poll(() => keys.getByTestId('key-health').textContent()).toMatch(/^Not working: The provider did not accept the key at this address/);
    provider.status = 200;

    // Removing the key leaves none stored.
    await keys.getByLabel('API key').fill('');
    await keys.getByRole('button', { name: 'Remove key' }).click();
    await expect.poll(() => keys.getByTestId('stored-key').textContent()).toBe('not set');
    await expect.poll(() => keys.getByTestId('key-health').textContent()).toBe('No key is stored.');
  }, 120_000);

  it('copies the embed snippet and checks a page that carries it', async () => {
    const widget = section(page, 'The widget');
    const snippet = (await widget.getByLabel('Embed snippet').textContent())!;
    expect(snippet).toMatch(/^<script src="http:\/\/127\.0\.0\.1:\d+\/sdk\/widget\.js" data-project-key="[^"]+" async><\/script>$/);
    await widget.getByRole('button', { name: 'Copy snippet' }).click();
    await widget.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(snippet);
    expect(await widget.getByRole('link', { name: 'See it on a demo page' }).getAttribute('href')).toMatch(/\/sdk\/demo\?key=/);

    // A page without the snippet is reported in words, with what to do.
    const bare = await customerPage('<p>No widget here.</p>');
    await widget.getByLabel('Page address').fill(bare.url);
    await widget.getByRole('button', { name: 'Check installation' }).click();
    await expect.poll(() => widget.getByTestId('verdict').textContent()).toMatch(/not installed correctly.*No widget script tag was found/);
    await bare.close();

    site = await customerPage(snippet);
    await widget.getByLabel('Page address').fill(site.url);
    await widget.getByRole('button', { name: 'Check installation' }).click();
    await expect.poll(() => widget.getByTestId('verdict').textContent()).toMatch(/^The widget is installed correctly on http:\/\/127\.0\.0\.1/);
  }, 60_000);

  it('says when the server has no GitHub or Linear app configured', async () => {
    const integrations = section(page, 'Integrations');
    await integrations.getByRole('button', { name: 'Connect GitHub' }).click();
    await integrations.getByText('The code-host app is not configured on this server').waitFor();
    await integrations.getByRole('button', { name: 'Connect Linear' }).click();
    await integrations.getByText('The tracker integration is not configured on this server').waitFor();
    expect(page.url()).toMatch(/\/settings$/);
  }, 60_000);

  it('invites someone by e-mail, lists the invitation and revokes it', async () => {
    const members = section(page, `Members of ${org}`);
    await members.getByRole('cell', { name: /ola@example\.com/ }).waitFor();
    await members.getByLabel('E-mail').fill('kit@example.com');
    await members.getByLabel('Role').selectOption('admin');
    await members.getByRole('button', { name: 'Send invitation' }).click();
    await members.getByText('Invitation sent to kit@example.com.').waitFor();
    const row = members.locator('[data-invitation="kit@example.com"]');
    await row.waitFor();
    expect(await row.textContent()).toMatch(/as admin/);
    await expect.poll(() => inbox.messages.some((m) => m.to.includes('kit@example.com'))).toBe(true);
    await accessible(page, 'settings-invited');
    await shots(page, 'settings');

    // Inviting the same address again says so and keeps the form.
    await members.getByLabel('E-mail').fill('kit@example.com');
    await members.getByRole('button', { name: 'Send invitation' }).click();
    await members.getByText(/already has a pending invitation/).waitFor();
    expect(await members.getByLabel('E-mail').inputValue()).toBe('kit@example.com');

    await members.getByRole('button', { name: 'Revoke the invitation for kit@example.com' }).click();
    await row.waitFor({ state: 'detached' });
    await members.getByText('No pending invitations.').waitFor();
  }, 60_000);

  it("takes the invited person from the e-mail's link through sign-in to joining (walkthrough 46)", async () => {
    const members = section(page, `Members of ${org}`);
    await members.getByLabel('E-mail').fill('lee@example.com');
    await members.getByRole('button', { name: 'Send invitation' }).click();
    await members.getByText('Invitation sent to lee@example.com.').waitFor();
    let mail: string | undefined;
    await expect.poll(() => (mail = inbox.messages.find((m) => m.to.includes('lee@example.com'))?.raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '='))).toBeDefined();
    const link = /(https?:\/\/\S+\/app\/invitation\?token=inv_[A-Za-z0-9_-]+)/.exec(mail!)?.[1];
    expect(link, mail).toBeDefined();
    // Signed out in a browser of their own: the link asks them to sign in first, then shows the invitation.
    const theirs = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const lee = await theirs.newPage();
      await lee.goto(link!);
      await lee.waitForURL(/\/app\/sign-in$/);
      await lee.getByLabel('Work e-mail').fill('lee@example.com');
      await lee.getByRole('button', { name: 'Send me a code' }).click();
      await lee.getByLabel('Code').waitFor();
      await expect.poll(() => inbox.otpFor('lee@example.com')).not.toBeNull();
      await lee.getByLabel('Code').fill(inbox.otpFor('lee@example.com')!);
      await lee.getByRole('button', { name: 'Sign in' }).click();
      await lee.waitForURL(/\/app\/invitation\?token=inv_/);
      await lee.getByRole('button', { name: /^Accept and join / }).click();
      await lee.waitForURL(/\/app\/projects$/);
      await lee.getByRole('heading', { level: 2, name: new RegExp(org) }).first().waitFor();
      await accessible(lee, 'invitation-accepted');
    } finally {
      await theirs.close();
    }
    await page.reload();
    await section(page, `Members of ${org}`).getByRole('cell', { name: /lee@example\.com/ }).waitFor();
  }, 90_000);

  it('requests a data export and sees it become ready to download', async () => {
    const exports = section(page, 'Export your data');
    await exports.getByRole('button', { name: 'Request an export' }).click();
    await exports.locator('[data-status=completed]').waitFor({ timeout: 60_000 });
    const link = exports.getByRole('link', { name: 'Download the export' });
    const res = await page.request.get(new URL((await link.getAttribute('href'))!, svc.url).toString());
    expect(res.status()).toBe(200);
    expect((await res.body()).subarray(0, 2).toString()).toBe('PK');
  }, 90_000);

  it('purges the research data after the handle is typed, keeping the project', async () => {
    await page.getByRole('button', { name: 'Purge research data…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Purge research data' });
    const confirm = dialog.getByRole('button', { name: 'Purge research data' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/to confirm/).fill(project);
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(/^Purged \d+ records and \d+ stored files\.$/).waitFor();
  }, 60_000);

  it('deletes a project only after its handle is typed', async () => {
    await page.goto(`${svc.url}/app/projects`);
    const doomed = await createProject(page, 'Old pilot');
    await page.goto(`${svc.url}/app/p/${doomed.org}/${doomed.project}/settings`);
    await page.getByRole('button', { name: 'Delete project…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this project' });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete project' });
    await dialog.getByLabel(/to confirm/).fill(`${doomed.project}-nope`);
    expect(await confirm.isDisabled()).toBe(true);
    await accessible(page, 'settings-delete-dialog');
    await shots(page, 'settings-delete-dialog');
    await page.emulateMedia({ colorScheme: 'dark' });
    await accessible(page, 'settings-delete-dialog-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByLabel(/to confirm/).fill(doomed.project);
    await confirm.click();
    await page.waitForURL(/\/app\/projects$/);
    const { token } = await svc.login('ola@example.com');
    expect((await svc.api('GET', `/api/orgs/${doomed.org}/projects/${doomed.project}`, { token })).status).toBe(404);
    expect((await svc.api('GET', `/api/orgs/${org}/projects/${project}`, { token })).status).toBe(200);
  }, 60_000);
});

describe('integrations on a server with GitHub and Linear apps', () => {
  it('picks the repository and the team once both are connected', async () => {
    const gh = await fakeGithub();
    const lin = await fakeLinear();
    const svc2 = await startTestService({
      env: {
        SMTP_URL: inbox.url,
        CODEHOST_APP_ID: gh.appId,
        CODEHOST_APP_PRIVATE_KEY: gh.privateKeyPem,
        CODEHOST_APP_SLUG: 'verbatim-test',
        CODEHOST_APP_URL: gh.url,
        CODEHOST_API_URL: gh.url,
        TRACKER_CLIENT_ID: 'lin-client',
        TRACKER_CLIENT_SECRET: 'lin-secret',
        TRACKER_AUTHORIZE_URL: `${lin.url}/oauth/authorize`,
        TRACKER_TOKEN_URL: `${lin.url}/oauth/token`,
        TRACKER_API_URL: lin.url,
      },
    });
    const page = await context.newPage();
    try {
      await signInAs(page, svc2, inbox, 'ivy@example.com');
      const { org, project } = await createProject(page, 'Delivery');
      await page.goto(`${svc2.url}/app/p/${org}/${project}/settings`);
      const integrations = section(page, 'Integrations');
      await expect.poll(() => integrations.getByTestId('github-status').textContent()).toBe('Not connected');
      // The connect buttons go to the providers: follow their redirects' targets without leaving the page.
      await page.route(`${gh.url}/**`, (r) => r.fulfill({ status: 200, body: 'GitHub' }));
      await integrations.getByRole('button', { name: 'Connect GitHub' }).click();
      await page.waitForURL(`${gh.url}/apps/verbatim-test/installations/new?state=*`);
      await page.goBack();

      // Both providers send the person back to the API, which records the connection (as in test/integrations.test.ts).
      const { token, userId } = await svc2.login('ivy@example.com');
      const sealed = svc2.services.secrets.seal('ghu_acme', userId);
      await svc2.services.db.pool.query(
        `INSERT INTO user_identities (id, user_id, provider, external_id, login, token_ciphertext, token_key_id) VALUES ('uid_acme', $1, 'codehost', 'gh-acme', 'acme', $2, $3)`,
        [userId, sealed.ciphertext, sealed.keyId],
      );
      const install = await svc2.api('GET', `/api/orgs/${org}/projects/${project}/codehost-app/install`, { token });
      const ghState = new URL(install.body.install_url).searchParams.get('state')!;
      expect((await svc2.api('GET', `/api/codehost/app/setup?installation_id=77&setup_action=install&state=${ghState}`, { token })).status).toBe(200);
      const connect = await svc2.api('GET', `/api/orgs/${org}/tracker/connect`, { token });
      const linState = new URL(connect.body.authorize_url).searchParams.get('state')!;
      expect((await svc2.api('GET', `/api/tracker/callback?code=good-code&state=${linState}`, { token })).body.connected).toBe(true);

      await page.reload();
      await integrations.getByLabel('Repository').selectOption('acme/shop');
      await integrations.getByRole('button', { name: 'Use this repository' }).click();
      await expect.poll(() => integrations.getByTestId('github-status').textContent()).toBe('Connected to acme/shop');
      await integrations.getByLabel('Team').selectOption({ label: 'Growth (TRI), triage' });
      await integrations.getByRole('button', { name: 'Use this team' }).click();
      await expect.poll(() => integrations.getByTestId('linear-status').textContent()).toBe('Connected to the Acme workspace, team Growth');
      await accessible(page, 'settings-integrations');
      await integrations.screenshot({ path: `${ARTIFACTS}/app-settings-integrations-1280.png` });
    } finally {
      await page.close();
      await svc2.stop();
      await gh.close();
      await lin.close();
    }
  }, 120_000);
});
