import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestService } from './helpers/service.ts';
import type { Inbox } from './helpers/smtp.ts';
import { accessible, createProject, shots, signIn, startWorkspace } from './helpers/workspace.ts';

/** The studies area of the workspace: list, create, edit with live review, widget and placement previews. */

let svc: TestService;
let inbox: Inbox;
let browser: Browser;

let stop = async () => {};
beforeAll(async () => {
  ({ svc, inbox, browser, stop } = await startWorkspace());
}, 120_000);
afterAll(() => stop());

/** The launcher's label, read inside the widget's shadow root in the preview iframe. */
async function previewLabel(page: Page): Promise<string | null> {
  const frame = page.frames().find((f) => f.url().includes('/sdk/demo'));
  if (!frame) return null;
  return frame
    .evaluate<string | null>(`document.querySelector('#verbatim-widget')?.shadowRoot?.querySelector('.vb-launcher')?.textContent ?? null`)
    .catch(() => null);
}

describe('studies in the workspace', () => {
  it('creates a study, edits it with inline review, saves, previews the widget and where it appears', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, svc, inbox, 'stu@example.com');
    const { org, project } = await createProject(page, 'Checkout research');
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Studies' }).click();
    await page.getByRole('heading', { name: 'Studies' }).waitFor();
    // A fresh project has its starter study.
    const starter = page.locator('tr[data-study=starter-study]');
    await starter.waitFor();
    expect(await starter.textContent()).toContain('Launcher');
    await accessible(page, 'studies');
    await shots(page, 'studies');

    await page.getByLabel('Title').fill('Checkout interviews');
    await page.getByRole('button', { name: 'Create study' }).click();
    await page.waitForURL(/\/studies\/std_/);
    await page.getByRole('heading', { name: 'Checkout interviews', level: 1 }).waitFor();
    // Offered everywhere, like the starter study, it cannot be activated: the page says why.
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByRole('alert').getByText(/Another active study is offered on the same page/).waitFor();
    expect(await page.getByRole('group', { name: 'Status' }).textContent()).toContain('draft');

    // The conductor's questions for a segment follow its instruction as the author types.
    const value = page.locator('li[data-segment=value]');
    const questions = value.getByRole('group', { name: /What the built-in conductor asks/ });
    await questions.getByText(/more useful to you/).waitFor();
    const instruction = value.getByLabel('Instruction for the conductor');
    await instruction.fill('Ask what they would pay for it.');
    await questions.getByText(/pay/).waitFor();
    expect(await questions.textContent()).not.toMatch(/recommend/);
    // A branch of the guide shows under the question it follows, with when it is asked.
    await instruction.fill('Ask: "Do you ever pay for add-ons?" If they say yes, ask which ones.');
    await questions.getByText('If yes: Which ones?').waitFor();
    // Warnings appear next to the field they concern.
    await instruction.fill('Pricing.');
    await value.locator('[data-code=no_participant_questions]').waitFor();
    await instruction.fill('');
    await value.locator('[data-code=missing_instruction]').waitFor();
    expect(await instruction.getAttribute('aria-describedby')).toBeTruthy();
    await instruction.fill('Ask what they would pay for it.');
    await value.locator('[data-code=missing_instruction]').waitFor({ state: 'detached' });
    await accessible(page, 'study-editor');

    // Segments are added (with their errors shown where they are), reordered and removed.
    await page.getByRole('button', { name: 'Add a segment' }).click();
    const added = page.locator('li[data-segment=segment-8]');
    await added.locator('[data-code=missing_title]').waitFor();
    expect(await added.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    await added.getByLabel('Title').fill('Pricing');
    await added.locator('[data-code=missing_title]').waitFor({ state: 'detached' });
    // A welcome switched from speak to talk takes no "said only in speak segments" warning for text it no longer shows.
    const welcome = page.locator('li[data-segment=welcome]');
    await welcome.getByLabel('What the conductor says').waitFor();
    await welcome.getByLabel('Mode').selectOption('talk');
    await welcome.getByLabel('What the conductor says').waitFor({ state: 'detached' });
    await welcome.getByLabel('Instruction for the conductor').fill('Ask how they found the product.');
    // Once the review has answered (its questions show), no warning is about the text switched away from.
    await welcome.getByRole('group', { name: /What the built-in conductor asks/ }).getByText(/find the product/).waitFor();
    expect(await welcome.locator('[data-code=unused_speak_text]').count()).toBe(0);
    await welcome.getByLabel('Mode').selectOption('speak');
    await welcome.getByLabel('Instruction for the conductor').fill('');
    // A note in what is said is named in the editor's own words (walkthrough 38), and goes when it goes.
    const said = welcome.getByLabel('What the conductor says');
    const original = await said.inputValue();
    await said.fill(`${original} [remind them we record the screen]`);
    const note = welcome.locator('[data-code=notes_in_speak_text]');
    await note.waitFor();
    expect(await note.textContent()).toContain('"What the conductor says"');
    expect(await note.textContent()).not.toContain('speak_text');
    await said.fill(original);
    await note.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Remove Pricing' }).click();
    await added.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Move How it went up' }).click();
    const order = () => page.locator('li[data-segment]').evaluateAll((els) => els.map((e) => e.getAttribute('data-segment')));
    expect(await order()).toEqual(['welcome', 'context', 'friction', 'task', 'value', 'anything-else', 'thanks']);
    await expect.poll(() => page.evaluate(`document.activeElement?.getAttribute('aria-label')`)).toBe('Move How it went up');

    // A failed save says why in words and keeps the form.
    await page.getByLabel('Only on the pages the rules name').check();
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByLabel('Rule 1 pathname').fill('checkout');
    await page.getByLabel('Launcher label').fill('Tell us about checkout');
    await page.getByRole('button', { name: 'Save' }).click();
    const failed = page.locator('.savebar [role=alert]');
    await failed.waitFor();
    expect(await failed.textContent()).toMatch(/must start with \//);
    expect(await page.getByLabel('Launcher label').inputValue()).toBe('Tell us about checkout');
    expect(await instruction.inputValue()).toBe('Ask what they would pay for it.');

    await page.getByLabel('Rule 1 pathname').fill('/checkout');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/Saved \(version 2\)/).waitFor();
    const { token } = await svc.login('stu@example.com');
    const ref = /\/studies\/(std_[^/]+)$/.exec(page.url())![1];
    const stored = (await (await fetch(`${svc.url}/api/orgs/${org}/projects/${project}/studies/${ref}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { study: { script_json: string; visibility: { rules: unknown[] } } };
    expect(JSON.parse(stored.study.script_json).segments.map((s: { id: string }) => s.id)).toEqual(['welcome', 'context', 'friction', 'task', 'value', 'anything-else', 'thanks']);
    expect(stored.study.visibility.rules).toEqual([{ effect: 'include', match: 'exact', pathname: '/checkout' }]);
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();

    // The preview shows the real widget on the page the study targets.
    await page.getByLabel('Page to preview').fill('/checkout');
    await page.getByRole('button', { name: 'Preview' }).click();
    const placement = page.locator('.placement');
    await placement.getByText(/Checkout interviews/).waitFor();
    expect(await placement.textContent()).toMatch(/includes exactly \/checkout/);
    await expect.poll(() => previewLabel(page), { timeout: 15_000 }).toBe('Tell us about checkout');

    // Changing the label and saving reloads the preview with the new label.
    await page.getByLabel('Launcher label').fill('Checkout feedback');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/Saved \(version 4\)/).waitFor();
    await expect.poll(() => previewLabel(page), { timeout: 15_000 }).toBe('Checkout feedback');

    // Other pages still get the starter study, for a reason in words.
    await page.getByLabel('Page to preview').fill('/pricing');
    await page.getByRole('button', { name: 'Preview' }).click();
    await placement.getByText(/Getting to know your users/).waitFor();
    expect(await placement.textContent()).toMatch(/no page rules/);
    await expect.poll(() => previewLabel(page), { timeout: 15_000 }).toBe('Share feedback');

    await page.setViewportSize({ width: 390, height: 844 });
    // Nothing in the editor is wider than a phone.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });
    await accessible(page, 'study-editor-saved');
    await shots(page, 'study-editor');
    await page.emulateMedia({ colorScheme: 'dark' });
    await accessible(page, 'study-editor-dark');
    await page.close();
  }, 180_000);

  it('asks before the page unloads with unsaved changes, and not once they are saved (walkthrough 43)', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, svc, inbox, 'lena@example.com');
    await createProject(page, 'Leaving');
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Studies' }).click();
    await page.locator('tr[data-study=starter-study] a').first().click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.type());
      void d.dismiss();
    });
    // Typed, as a person does: a browser asks before unloading only a page the person has used.
    const title = page.locator('#study-title');
    await title.click();
    await page.keyboard.press('End');
    await page.keyboard.type(', half edited');
    await page.getByText('Unsaved changes', { exact: true }).first().waitFor();
    await page.evaluate('setTimeout(() => location.reload())');
    await expect.poll(() => asked).toEqual(['beforeunload']);
    // Dismissed, the page stays, with the edit.
    expect(await title.inputValue()).toMatch(/, half edited$/);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: /, half edited$/, level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: /, half edited$/, level: 1 }).waitFor();
    expect(asked).toEqual(['beforeunload']);
    await page.close();
  }, 120_000);

  it('keeps an unsaved edit when the session ends mid-edit, and puts it back after signing in again', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, svc, inbox, 'una@example.com');
    await createProject(page, 'Drafts');
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Studies' }).click();
    await page.locator('tr[data-study=starter-study] a').first().click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    const editorUrl = page.url();
    const title = page.locator('#study-title');
    await title.fill('Starter study, reworded before the session ends');
    // The session ends elsewhere (signed out in another tab).
    expect((await page.request.post(`${svc.url}/api/auth/logout`)).status()).toBe(200);
    // Saving is refused with the session gone: the page goes to sign-in.
    await title.fill('Starter study, reworded before the session ended');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/app\/sign-in$/, { timeout: 30_000 });
    await signIn(page, svc, inbox, 'una@example.com');
    await page.goto(editorUrl);
    await page.getByRole('status').filter({ hasText: 'Your unsaved changes from before were kept' }).waitFor();
    expect(await page.locator('#study-title').inputValue()).toBe('Starter study, reworded before the session ended');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Starter study, reworded before the session ended', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'were kept' }).count()).toBe(0);
    await page.close();
  }, 120_000);
});
