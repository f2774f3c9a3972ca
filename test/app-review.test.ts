import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestService } from './helpers/service.ts';
import type { Inbox } from './helpers/smtp.ts';
import { ARTIFACTS } from './helpers/browser.ts';
import { accessible, createProject, shots, signIn as signInAs, startWorkspace } from './helpers/workspace.ts';
import { importedInterview, type ownerWithProject } from './helpers/fixtures.ts';

/** The evidence review queue at /app/p/:org/:project/evidence, driven by the keyboard in Chromium. */

let svc: TestService;
let inbox: Inbox;
let browser: Browser;

let stop = async () => {};
beforeAll(async () => {
  ({ svc, inbox, browser, stop } = await startWorkspace());
}, 120_000);
afterAll(() => stop());

type Owner = Awaited<ReturnType<typeof ownerWithProject>>;

/** The REST view of the project the page created, for the same researcher. */
async function restFor(email: string, org: string, project: string): Promise<Owner> {
  const { token } = await svc.login(email);
  const P = `/api/orgs/${org}/projects/${project}`;
  const call = (method: string, p: string, body?: unknown) => svc.api(method, `${P}${p}`, { token, body });
  return { token, P, call } as unknown as Owner;
}

/** A page whose script errors and console errors (a refused inline style would be one) fail the test. */
async function watchedPage() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return { page, errors };
}

const card = (page: Page, id: string) => page.locator(`.card[data-id="${id}"]`);
const selectedId = (page: Page) => page.locator('.card[aria-selected=true]').getAttribute('data-id');
const counted = (n: number) => new RegExp(`^${n.toLocaleString('en-US')} cards?\\b`);
// Evaluated as text: the test project's types have no DOM.
const focusedId = (page: Page) => page.evaluate(`document.activeElement?.getAttribute('data-id')`);

describe('the evidence review queue', () => {
  it('reviews, dismisses, annotates and groups cards into a finding from the keyboard, and searches', async () => {
    const email = 'ria@example.com';
    const { page, errors } = await watchedPage();
    await signInAs(page, svc, inbox, email);
    errors.length = 0; // the signed-out page's session check answers 401, as it should
    const { org, project } = await createProject(page, 'Review queue');
    const o = await restFor(email, org, project);
    await importedInterview(svc, o, 'checkout.txt', { participant_name: 'Maria' });
    await importedInterview(svc, o, 'groceries.txt', { participant_name: 'Jo' });
    const listed = (await o.call('GET', '/signals?limit=200')).body;
    const ids: string[] = listed.signals.map((s: { id: string }) => s.id);
    expect(ids.length).toBeGreaterThanOrEqual(6);

    await page.goto(`${svc.url}/app/p/${org}/${project}/evidence`);
    await page.getByRole('heading', { name: 'Evidence', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: counted(listed.total) }).waitFor();
    expect(await selectedId(page)).toBe(ids[0]);
    // The detail pane reads the card in full, with a link to its moment in the interview.
    const moment = page.getByRole('link', { name: /Open the interview/ });
    await moment.waitFor();
    expect(await moment.getAttribute('href')).toMatch(new RegExp(`/app/p/${org}/${project}/interviews/${listed.signals[0].session_id}(\\?t=\\d+)?$`));
    await page.getByRole('heading', { name: 'Case file' }).waitFor();
    await accessible(page, 'evidence');
    await shots(page, 'evidence');

    // j, r, r: the second and third cards are reviewed; r moves on to the next card, selected and focused.
    await page.keyboard.press('j');
    expect(await selectedId(page)).toBe(ids[1]);
    expect(await focusedId(page)).toBe(ids[1]);
    await page.keyboard.press('r');
    await card(page, ids[1]).getByText('Reviewed').waitFor();
    await page.getByRole('status').filter({ hasText: 'Card 2 marked reviewed' }).waitFor();
    await page.waitForFunction(`document.activeElement?.getAttribute('data-id') === ${JSON.stringify(ids[2])}`);
    expect(await selectedId(page)).toBe(ids[2]);
    await page.keyboard.press('r');
    await card(page, ids[2]).getByText('Reviewed').waitFor();
    await page.waitForFunction(`document.activeElement?.getAttribute('data-id') === ${JSON.stringify(ids[3])}`);
    await page.keyboard.press('k');
    expect(await focusedId(page)).toBe(ids[2]);
    for (const id of [ids[1], ids[2]]) expect((await o.call('GET', `/signals/${id}`)).body.signal.review_status).toBe('reviewed');
    expect((await o.call('GET', `/signals/${ids[0]}`)).body.signal.review_status ?? null).not.toBe('reviewed');
    // r on a card already reviewed says so and moves on, as it does after reviewing one.
    await page.keyboard.press('r');
    await page.getByRole('status').filter({ hasText: 'Card 3 was already reviewed' }).waitFor();
    await expect.poll(() => focusedId(page)).toBe(ids[3]);
    await page.keyboard.press('k');
    expect(await focusedId(page)).toBe(ids[2]);

    // d asks for a reason; Escape cancels, and Tab stays inside the dialog.
    await page.keyboard.press('d');
    const dismiss = page.getByRole('dialog', { name: 'Dismiss this card' });
    await dismiss.waitFor();
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(`!!document.activeElement?.closest('dialog')`)).toBe(true);
    }
    await accessible(page, 'evidence-dismiss');
    await page.keyboard.press('Escape');
    await dismiss.waitFor({ state: 'detached' });
    expect((await o.call('GET', `/signals/${ids[2]}`)).body.signal.dismissed_at).toBeNull();
    expect(await focusedId(page)).toBe(ids[2]);
    await page.keyboard.press('d');
    // A common reason is one click away.
    await dismiss.getByRole('group', { name: 'Common reasons' }).getByRole('button', { name: 'Duplicate' }).click();
    expect(await dismiss.getByLabel('Reason', { exact: true }).inputValue()).toBe('Duplicate');
    // Picked, the reason's field has the focus again, so Enter dismisses.
    expect(await page.evaluate(`document.activeElement?.id`)).toBe('dismiss-reason');
    await dismiss.getByLabel('Reason', { exact: true }).fill('Duplicate of the card above');
    await page.keyboard.press('Enter');
    await dismiss.waitFor({ state: 'detached' });
    await card(page, ids[2]).getByText('Dismissed').waitFor();
    expect((await o.call('GET', `/signals/${ids[2]}`)).body.signal.dismissed_reason).toBe('Duplicate of the card above');
    // It stays in place to be restored, but is no longer counted; a dismissed card cannot be marked reviewed.
    await page.getByRole('status').filter({ hasText: `${listed.total - 1} cards (1 just dismissed)` }).waitFor();
    // Dismissed, the queue moves on, as after r; the dismissed card cannot be marked reviewed.
    await page.waitForFunction(`document.activeElement?.getAttribute('data-id') === ${JSON.stringify(ids[3])}`);
    expect(await selectedId(page)).toBe(ids[3]);
    await page.keyboard.press('k');
    expect(await page.getByRole('button', { name: /Mark reviewed/ }).isDisabled()).toBe(true);

    // e corrects what extraction concluded: type, headline and claim; Ctrl+Enter saves.
    await page.keyboard.press('j');
    await page.keyboard.press('e');
    const correct = page.getByRole('dialog', { name: 'Correct this card' });
    await correct.getByLabel('Type', { exact: true }).selectOption('workaround');
    // The headline's limit is said as it is reached, not found out after saving.
    await correct.getByLabel('Headline').fill('x'.repeat(80));
    expect(await correct.getByLabel('Headline').inputValue()).toHaveLength(70);
    await correct.getByText('70 of 70 characters: a headline can be no longer').waitFor();
    await correct.getByLabel('Headline').fill('Pays by bank transfer to avoid the card form');
    await correct.getByText('44 of 70 characters').waitFor();
    await accessible(page, 'evidence-correct');
    await correct.getByLabel('Claim').press('Control+Enter');
    await correct.waitFor({ state: 'detached' });
    await card(page, ids[3]).getByText('Pays by bank transfer to avoid the card form').waitFor();
    const corrected = (await o.call('GET', `/signals/${ids[3]}`)).body.signal;
    expect([corrected.signal_type, corrected.headline]).toEqual(['workaround', 'Pays by bank transfer to avoid the card form']);
    // The card says what its type means, in plain words (walkthrough 46: "Hiring criteria" and "Firing moment" were jargon).
    await page.getByText('Workaround: What they do instead of, or around, the product.').waitFor();
    await page.keyboard.press('k');

    // n annotates the card above.
    await page.keyboard.press('k');
    await page.keyboard.press('n');
    const note = page.getByRole('dialog', { name: 'Annotate this card' });
    await note.getByLabel('Note').fill('Ask Maria about her bank next time');
    // Enter is a new line in a note; Ctrl+Enter saves it, as in the other dialogs.
    await note.getByLabel('Note').press('Control+Enter');
    await note.waitFor({ state: 'detached' });
    expect((await o.call('GET', `/signals/${ids[1]}`)).body.signal.annotation_text).toBe('Ask Maria about her bank next time');

    // f makes a new finding from one card, then adds another card to that draft.
    await page.keyboard.press('End');
    await page.keyboard.press('f');
    const finding = page.getByRole('dialog', { name: 'Add to a finding' });
    // The card's headline is offered selected: what is typed replaces it.
    await page.keyboard.type('Discount code is hard to find');
    expect(await finding.getByLabel('Title of the new finding').inputValue()).toBe('Discount code is hard to find');
    await shots(page, 'evidence-finding');
    await finding.getByRole('button', { name: 'Create finding' }).click();
    await finding.waitFor({ state: 'detached' });
    await page.keyboard.press('k');
    await page.keyboard.press('f');
    // The draft just started is the one chosen; a new finding is one click away.
    expect(await finding.getByRole('radio', { name: /Discount code is hard to find/ }).isChecked()).toBe(true);
    await accessible(page, 'evidence-finding');
    await finding.getByRole('button', { name: 'Add to finding' }).click();
    await finding.waitFor({ state: 'detached' });
    const findings = (await o.call('GET', '/findings')).body.findings;
    expect(findings).toHaveLength(1);
    const evidence = (await o.call('GET', `/findings/${findings[0].finding_ref}/evidence`)).body.evidence.map((s: { id: string }) => s.id);
    expect(evidence.sort()).toEqual([ids[ids.length - 1], ids[ids.length - 2]].sort());

    // ? lists the shortcuts.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Mark reviewed').waitFor();
    await accessible(page, 'evidence-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // Search narrows the list, and lives in the URL.
    const searched = (await o.call('GET', '/signals?limit=200&search=discount')).body;
    expect(searched.total).toBeGreaterThan(0);
    expect(searched.total).toBeLessThan(listed.total - 1);
    await page.keyboard.press('/');
    await page.keyboard.type('discount');
    await page.waitForURL(/[?&]q=discount/);
    await page.getByRole('status').filter({ hasText: counted(searched.total) }).waitFor();
    expect(await page.locator('.card').count()).toBe(searched.total);
    // Enter goes back to the cards, so j and k move again rather than type into the search.
    const onCard = () => page.evaluate(`document.activeElement?.getAttribute('role')`);
    await page.getByLabel('Search', { exact: true }).press('Enter');
    await expect.poll(onCard).toBe('option');
    // Escape from the search clears it and goes back to the cards too.
    await page.keyboard.press('/');
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => !u.searchParams.has('q'));
    await expect.poll(onCard).toBe('option');
    await page.keyboard.press('j');
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('');
    await page.keyboard.press('/');
    await page.keyboard.type('discount');
    await page.waitForURL(/[?&]q=discount/);
    await page.getByRole('status').filter({ hasText: counted(searched.total) }).waitFor();
    // A filter joins the search in the URL, and the page reloads into the same view.
    const maria = (await o.call('GET', '/sessions')).body.sessions.find((x: { participant_name: string }) => x.participant_name === 'Maria');
    await page.getByLabel('Interview', { exact: true }).selectOption(maria.id);
    await page.waitForURL(/interview=/);
    await page.reload();
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('discount');
    await page.locator('.card').first().waitFor();
    await shots(page, 'evidence-search');

    // Dismissed cards have their own view, from which one can be restored.
    await page.goto(`${svc.url}/app/p/${org}/${project}/evidence`);
    await page.getByLabel('Dismissed cards').check();
    await page.waitForURL(/[?&]dismissed=1/);
    await page.getByRole('status').filter({ hasText: counted(1) }).waitFor();
    await page.getByText('Dismissed: Duplicate of the card above').waitFor();
    await page.getByRole('button', { name: 'Restore' }).click();
    await card(page, ids[2]).getByText('Dismissed').waitFor({ state: 'detached' });
    expect((await o.call('GET', `/signals/${ids[2]}`)).body.signal.dismissed_at).toBeNull();

    await page.emulateMedia({ colorScheme: 'dark' });
    await accessible(page, 'evidence-dark');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-evidence-dark-1280.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('stays a window of rows with 10,000 cards, and reaches the last one with End or by scrolling', async () => {
    const email = 'max@example.com';
    const { page, errors } = await watchedPage();
    await signInAs(page, svc, inbox, email);
    errors.length = 0; // the signed-out page's session check answers 401, as it should
    const { org, project } = await createProject(page, 'Large queue');
    const o = await restFor(email, org, project);
    const sessionId = await importedInterview(svc, o, 'checkout.txt');
    const pool = svc.services.db.pool;
    const { rows: cols } = await pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'signals' AND is_generated = 'NEVER' AND column_name NOT IN ('id', 'headline', 'created_at')`,
    );
    const copied = cols.map((c) => `"${c.column_name}"`).join(', ');
    // Copies of one real card, all older than the real ones, so "Bulk card 10000" is the last of the queue.
    await pool.query(
      `INSERT INTO signals (id, headline, created_at, ${copied})
       SELECT 'sig_bulk_' || g, 'Bulk card ' || g, s.created_at - g * interval '1 second', ${cols.map((c) => `s."${c.column_name}"`).join(', ')}
       FROM (SELECT * FROM signals WHERE interview_id = $1 ORDER BY created_at LIMIT 1) s, generate_series(1, 10000) g`,
      [sessionId],
    );
    const total = (await o.call('GET', '/signals?limit=1')).body.total;
    expect(total).toBeGreaterThan(10_000);

    await page.goto(`${svc.url}/app/p/${org}/${project}/evidence`);
    await page.getByRole('status').filter({ hasText: counted(total) }).waitFor();
    await page.locator('.card').first().waitFor();
    expect(await page.locator('.card').count()).toBeLessThan(100);
    await accessible(page, 'evidence-large');

    await page.keyboard.press('End');
    const last = card(page, 'sig_bulk_10000');
    await last.waitFor({ timeout: 60_000 });
    expect(await last.getAttribute('aria-selected')).toBe('true');
    expect(await last.getAttribute('aria-posinset')).toBe(String(total));
    await page.getByRole('heading', { name: 'Bulk card 10000', level: 2 }).waitFor();
    expect(await page.locator('.card').count()).toBeLessThan(100);
    await shots(page, 'evidence-large-end');

    // Back to the top, then to the bottom with the scroll wheel.
    await page.keyboard.press('Home');
    await last.waitFor({ state: 'detached' });
    const list = page.locator('.review-scroller');
    await list.hover();
    for (let i = 0; i < 400 && !(await last.isVisible()); i++) await page.mouse.wheel(0, 20_000);
    await last.waitFor();
    expect(await page.locator('.card').count()).toBeLessThan(100);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
