import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestService } from './helpers/service.ts';
import type { Inbox } from './helpers/smtp.ts';
import { ARTIFACTS } from './helpers/browser.ts';
import { accessible, shots, signIn as signInAs, startWorkspace } from './helpers/workspace.ts';
import { FIXTURES } from './helpers/extractor-eval.ts';
import { form } from './helpers/media.ts';

/** The research workspace at /app, in Chromium, as a researcher uses it. */

let svc: TestService;
let inbox: Inbox;
let browser: Browser;

let stop = async () => {};
beforeAll(async () => {
  ({ svc, inbox, browser, stop } = await startWorkspace());
}, 120_000);
afterAll(() => stop());

const signIn = (page: Page, email: string) => signInAs(page, svc, inbox, email);

describe('the workspace at /app', () => {
  it('signs in with an e-mailed code, creates a project and shows an imported interview becoming processed, accessibly at desktop and phone width', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${svc.url}/app`);
    await page.waitForURL(/\/app\/sign-in$/);
    await accessible(page, 'sign-in');
    await shots(page, 'sign-in');

    // A wrong code says so, in words, and keeps the form.
    await page.getByLabel('Work e-mail').fill('rae@example.com');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('Code').fill('000000' === inbox.otpFor('rae@example.com') ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/not right \(4 tries left\)/);
    await page.getByRole('button', { name: /Use another address/ }).click();

    await signIn(page, 'rae@example.com');
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await accessible(page, 'projects');
    await page.getByLabel('Name').fill('Checkout research');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/app\/p\/[^/]+\/checkout-research$/);
    await page.getByRole('heading', { name: 'Checkout research' }).waitFor();
    await shots(page, 'projects-created');

    // An interview imported through the API appears and moves to processed without a reload.
    const [, org, project] = /\/app\/p\/([^/]+)\/([^/]+)$/.exec(page.url())!;
    const { token } = await svc.login('rae@example.com');
    const fd = form({ transcript: { file: path.join(FIXTURES, 'checkout.txt'), type: 'text/plain' }, participant_name: 'Sam' });
    const imported = await fetch(`${svc.url}/api/orgs/${org}/projects/${project}/sessions/import-transcript`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: fd });
    expect(imported.status).toBe(201);
    await page.locator('tr', { hasText: 'Sam' }).locator('.badge.processed').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-state=processed] strong').textContent()).toBe('1');
    // Someone who opened the widget and declined has left, not an interview waiting to start.
    const key = (await svc.api('GET', `/api/orgs/${org}/projects/${project}`, { token })).body.project.public_key;
    const left = await svc.api('POST', '/api/sdk/sessions', { headers: { 'x-project-key': key }, body: { study_id: 'starter-study', interview_mode: 'text' } });
    await svc.api('POST', `/api/sdk/sessions/${left.body.session.id}/consent`, { headers: { 'x-project-key': key }, body: { consent_recording: false, consent_data_use: false, consent_version: 'widget-2026-11' } });
    await page.locator('[data-state=abandoned] strong', { hasText: '1' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-state=not_started] strong').textContent()).toBe('0');
    expect(await page.locator(`tr[data-session="${left.body.session.id}"] .badge`).textContent()).toBe('Left without answering');
    // Each of the latest interviews opens from the home page.
    expect(await page.locator('tr', { hasText: 'Sam' }).getByRole('link', { name: 'Sam' }).getAttribute('href')).toMatch(/\/interviews\/int_/);
    // Its evidence shows up for review.
    await page.locator('section[aria-labelledby=review] li').first().waitFor({ timeout: 30_000 });
    await accessible(page, 'project-home');
    await shots(page, 'project-home');
    // Nothing on the home is wider than a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    const wide = await page.evaluate(`[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 390.5).map((e) => e.tagName + '.' + e.className).slice(0, 8).join(', ')`);
    expect(await page.evaluate('document.documentElement.scrollWidth'), wide as string).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await accessible(page, 'project-home-dark');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-project-home-dark-1280.png'), fullPage: true });
    await page.close();
  }, 180_000);

  it('sends a page whose session ends back to sign-in', async () => {
    const page = await browser.newPage();
    await signIn(page, 'sol@example.com');
    await page.getByLabel('Name').fill('Onboarding');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Onboarding' }).waitFor();
    await svc.services.db.pool.query(`UPDATE user_sessions SET revoked_at = now() WHERE user_id = (SELECT id FROM users WHERE email = 'sol@example.com')`);
    // The live interview list polls: the first refused call ends the session in the page.
    await page.waitForURL(/\/app\/sign-in$/, { timeout: 30_000 });
    await page.close();
  }, 60_000);

  it('opens the workspace from a command-line sign-in link', async () => {
    const { createSignInLink } = await import('../auth/email-code.ts');
    const url = await createSignInLink(svc.services, 'tam@example.com');
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForURL(/\/app\/projects$/);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.close();
  }, 60_000);
});
