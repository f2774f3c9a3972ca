import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestService, type TestService } from './service.ts';
import { smtpInbox, type Inbox } from './smtp.ts';
import { ARTIFACTS, launchBrowser } from './browser.ts';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it is: no serious or critical violation. */
export async function accessible(page: Page, name: string) {
  // Evaluated over the DevTools protocol: the workspace's CSP (script-src 'self') rightly refuses inline scripts.
  await page.evaluate(axeSource);
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as { violations: Array<{ id: string; impact: string }> };
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${name}: ${v.id} (${v.impact})`)).toEqual([]);
}

/** Screenshots of the page at 1280 and 390 px wide, kept in test-artifacts/. */
export async function shots(page: Page, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `app-${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(ARTIFACTS, `app-${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Signs in through the page with the e-mailed code, ending on the projects list. */
export async function signIn(page: Page, svc: TestService, inbox: Inbox, email: string) {
  await page.goto(`${svc.url}/app`);
  await page.waitForURL(/\/app\/sign-in$/);
  await page.getByLabel('Work e-mail').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('Code').waitFor();
  let code: string | null = null;
  for (let i = 0; i < 50 && !code; i++) {
    code = inbox.otpFor(email);
    if (!code) await new Promise((r) => setTimeout(r, 50));
  }
  await page.getByLabel('Code').fill(code!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/app\/projects$/);
}

/** Creates a project through the page and returns its org and project handles. */
export async function createProject(page: Page, name: string): Promise<{ org: string; project: string }> {
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.waitForURL(/\/app\/p\/[^/]+\/[^/]+$/);
  await page.getByRole('heading', { name }).waitFor();
  const [, org, project] = /\/app\/p\/([^/]+)\/([^/]+)$/.exec(page.url())!;
  return { org, project };
}

/** The service (worker on, mail to an SMTP sink) and a Chromium, as the workspace tests need them. */
export async function startWorkspace(env: Record<string, string> = {}, browserArgs: string[] = []) {
  const inbox = await smtpInbox();
  const svc = await startTestService({ env: { SMTP_URL: inbox.url, WORKER: 'on', ...env } });
  const browser = await launchBrowser(browserArgs);
  return {
    svc,
    inbox,
    browser,
    async stop() {
      await browser.close();
      await svc.stop();
      await inbox.close();
    },
  };
}
