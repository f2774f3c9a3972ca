import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, settled, validInvitation, visibility } from './helpers/fixtures.ts';
import { ARTIFACTS, launchBrowser } from './helpers/browser.ts';
import { directedText } from './helpers/participant-text.ts';
import { starterScript } from '../tools/studies/starter.ts';
import { ACKNOWLEDGEMENT, ON_YOUR_OWN } from '../tools/conductor/heard.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';

const invitation = {
  ...validInvitation,
  launcher: { label: 'Tell us about exports', icon: 'mic', style: 'calm', shape: 'rounded' },
  brand_color: { light: '#0A7A5A', dark: '#55DDAA' },
  foreground_color: '#FFFFFF',
  placement: { desktop: 'bottom-left', mobile: 'bottom-right' },
};
const script = {
  version: 2,
  goals: [{ id: 'g1', description: 'Understand exporting' }],
  segments: [
    { id: 'hello', mode: 'speak', title: 'Hello', speak_text: 'Welcome, thanks for joining.' },
    { id: 'ask', mode: 'talk', title: 'Exporting', instruction: 'Ask about the last time they exported a report.', conductor_context: 'Serves g1' },
  ],
};

/** A customer's site on its own loopback origin, embedding the widget with one script tag. */
async function customerSite(widgetSrc: string, key: string) {
  const server = http.createServer((req, res) => {
    if (req.url === '/broken') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><script src="http://[broken/sdk/widget.js"></script></body></html>');
    // A page with a control half-way down, where a full panel would cover it on a phone.
    const task = req.url?.startsWith('/tasks') ? '<button id="pay" type="button" style="margin-top:300px">Pay invoice</button>' : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><head><title>Shop</title></head>
<body style="margin:0;font-family:sans-serif"><main id="content" style="padding:24px"><h1>Reports</h1><p>Your monthly reports.</p>${task}</main>
<script src="${widgetSrc}" data-project-key="${key}" async></script></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Presses Shift+Tab (up to six times) until focus is on the page's control named `name`, outside the widget. */
async function leaveByKeyboard(page: Page, name: string): Promise<boolean> {
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Shift+Tab');
    if (await page.evaluate(`document.activeElement !== document.querySelector('#verbatim-widget') && document.activeElement.textContent.trim() === ${JSON.stringify(name)}`)) return true;
  }
  return false;
}

/** The lines of the panel's body (below its heading) on the last screen. */
const lastScreen = (page: Page) => shadow(page, `[...root.querySelectorAll('.vb-body > *')].map((e) => e.textContent)`) as Promise<string[]>;

const shadow = (page: Page, expr: string) => page.evaluate(`(() => { const root = document.querySelector('#verbatim-widget').shadowRoot; return ${expr}; })()`);

let svc: TestService;
let browser: Browser;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let site: Awaited<ReturnType<typeof customerSite>>;
let other: Awaited<ReturnType<typeof customerSite>>;
let studyRef: string;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await fakeOpenAI('sk-widget-test');
  svc = await startTestService({ env: { WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  o = await ownerWithProject(svc, 'widget@example.com', 'Shop');
  site = await customerSite(`${svc.url}/sdk/widget.js`, o.project.public_key);
  other = await customerSite(`${svc.url}/sdk/widget.js`, o.project.public_key);
  const res = await o.call('POST', '/studies', {
    title: 'Export study', status: 'active', goals: script.goals, script, invitation,
    visibility: visibility([['include', 'subtree', '/app']]), allowed_origins: [site.origin],
  });
  expect(res.status).toBe(201);
  studyRef = res.body.study.ref;
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await other?.close();
  await svc?.stop();
  await fake?.close();
});

/** The customer site's launcher opened, consent given, and the first question asked. */
async function interviewStarted(page: Page) {
  await page.goto(`${site.origin}/app/reports`);
  await page.locator('.vb-launcher').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
  await page.getByRole('dialog').getByLabel('I agree that my answers may be used for research.').check();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
  const live = page.getByRole('dialog', { name: 'Interview' });
  const log = live.getByRole('log', { name: 'Conversation' });
  await log.getByText('Could you tell me about the last time you exported a report?').waitFor();
  return { live, log };
}

describe('widget in Chromium', () => {
  it('shows the configured launcher, opens by keyboard, takes consent and runs a two-turn interview that resumes after a reload and is processed', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${site.origin}/app/reports`);
    const launcher = page.locator('.vb-launcher');
    await launcher.waitFor();
    expect(await launcher.textContent()).toBe('Tell us about exports');
    expect(await launcher.getAttribute('aria-haspopup')).toBe('dialog');
    expect(await shadow(page, `root.querySelector('.vb-teaser').textContent`)).toBe('Help us improve checkout');
    const style = (await shadow(page, `(() => { const s = getComputedStyle(root.querySelector('.vb-launcher')); return { bg: s.backgroundColor, fg: s.color, left: s.left, radius: s.borderTopLeftRadius }; })()`)) as Record<string, string>;
    expect(style).toEqual({ bg: 'rgb(10, 122, 90)', fg: 'rgb(255, 255, 255)', left: '20px', radius: '12px' });
    // The widget takes no room on the host page.
    const withWidget = await page.evaluate(`JSON.stringify(document.querySelector('#content').getBoundingClientRect())`);
    const host = await page.evaluate(`(() => { const r = document.querySelector('#verbatim-widget').getBoundingClientRect(); return r.width * r.height; })()`);
    expect(host).toBe(0);
    expect(await page.evaluate(`(() => { const h = document.querySelector('#verbatim-widget'); const p = h.parentNode; h.remove(); const r = JSON.stringify(document.querySelector('#content').getBoundingClientRect()); p.append(h); return r; })()`)).toBe(withWidget);
    await launcher.screenshot({ path: path.join(ARTIFACTS, 'widget-launcher.png') });

    expect(await shadow(page, `root.querySelector('.vb-launcher svg') !== null`)).toBe(true);
    // On a phone the launcher moves to the invitation's mobile corner.
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await shadow(page, `Math.round(root.querySelector('.vb-launcher').getBoundingClientRect().right)`)).toBe(390 - 20);
    await page.setViewportSize({ width: 1200, height: 800 });

    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await shadow(page, `getComputedStyle(root.querySelector('.vb-launcher')).backgroundColor`)).toBe('rgb(85, 221, 170)');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.keyboard.press('Tab');
    expect(await shadow(page, `root.activeElement && root.activeElement.className`)).toBe('vb-launcher');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Help us improve checkout' });
    await dialog.waitFor();
    expect(await launcher.getAttribute('aria-expanded')).toBe('true');
    await expect(dialog.getByText('About 10 minutes')).toBeTruthy();
    expect(await dialog.textContent()).toContain('$20 gift card');
    await page.waitForTimeout(250); // the panel's entry animation
    await page.screenshot({ path: path.join(ARTIFACTS, 'widget-panel.png') });
    // Escape closes and gives focus back; Enter opens again.
    await page.keyboard.press('Escape');
    expect(await dialog.isHidden()).toBe(true);
    expect(await shadow(page, `root.activeElement && root.activeElement.className`)).toBe('vb-launcher');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Start' }).focus();
    await page.keyboard.press('Enter');

    const dataUse = dialog.getByLabel('I agree that my answers may be used for research.');
    // Continue says why it does not go on yet, to the keyboard too, and goes to the box (walkthrough 46).
    const go = dialog.getByRole('button', { name: 'Continue' });
    expect(await go.getAttribute('aria-disabled')).toBe('true');
    expect(await go.getAttribute('aria-describedby')).toBeTruthy();
    await go.focus();
    await page.keyboard.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'Tick the box above to agree, then continue.' }).waitFor();
    await expect.poll(() => dataUse.evaluate((el: any) => el === el.getRootNode().activeElement)).toBe(true);
    await page.keyboard.press('Space');
    expect(await go.getAttribute('aria-disabled')).toBe('false');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    // Once the conversation runs, the heading no longer asks the invitation's question.
    const interview = page.getByRole('dialog', { name: 'Interview' });
    const log = interview.getByRole('log', { name: 'Conversation' });
    await log.getByText('Could you tell me about the last time you exported a report?').waitFor();
    expect(await log.textContent()).toContain('Welcome, thanks for joining.');
    expect(await interview.getByText('Help us improve checkout').count()).toBe(0);
    expect(await interview.getByText('Research', { exact: true }).isVisible()).toBe(false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'widget-interview.png') });
    const answer = interview.getByLabel('Your answer');
    await answer.fill('Last week.');
    await page.keyboard.press('Enter');
    await log.getByText('Could you say a bit more about that?').waitFor();

    // A reload mid-interview resumes the same conversation.
    await page.reload();
    const resumed = page.getByRole('dialog', { name: 'Interview' });
    await resumed.getByRole('log').getByText('Could you say a bit more about that?').waitFor();
    expect(await resumed.getByRole('log').textContent()).toContain('Last week.');
    await resumed.getByLabel('Your answer').fill("I couldn't find the export button anywhere and it was really frustrating, so I gave up and took screenshots instead. Who reads these answers?");
    await resumed.getByRole('button', { name: 'Send' }).click();
    const finished = page.getByRole('dialog', { name: 'Thank you' });
    await finished.getByText('That is everything I wanted to ask. Thank you for your time!').waitFor();
    // The answer to their last question stays on the last screen, before the closing words.
    expect(await lastScreen(page)).toEqual([
      'Only the team that makes the product reads your answers, and you can skip any question you would rather not answer.',
      'That is everything I wanted to ask. Thank you for your time!',
      'You can close this panel.',
    ]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'widget-done.png') });
    // Having taken part, the visitor is not invited to the same study again: the launcher thanks them instead, also after a reload.
    const alreadyTaken = async () => {
      const note = page.getByRole('dialog', { name: 'Thank you' });
      await note.getByText('You have already taken part in this interview.').waitFor();
      expect(await note.getByRole('button', { name: 'Start' }).count()).toBe(0);
      expect(await note.getByText('Help us improve checkout').count()).toBe(0);
    };
    await launcher.click();
    await launcher.click();
    await alreadyTaken();
    await page.reload();
    await launcher.waitFor();
    expect(await shadow(page, `root.querySelector('.vb-teaser')`)).toBeNull();
    await launcher.click();
    await alreadyTaken();
    expect(await page.evaluate(`Object.keys(localStorage)`)).toEqual([`verbatim:${o.project.public_key}:done:${studyRef}`]);

    const sessions = (await o.call('GET', '/sessions')).body.sessions.filter((s: any) => s.study_ref === studyRef);
    expect(sessions).toHaveLength(1);
    const id = sessions[0].id;
    const detail = (await o.call('GET', `/sessions/${id}`)).body.session;
    expect(detail).toMatchObject({ status: 'completed', consent_data_use: true, consent_recording: false, consent_version: 'widget-2026-11-28', source: 'widget' });
    expect(detail.messages.filter((m: any) => m.role === 'participant')).toHaveLength(2);
    const done = await settled(o.call, id);
    expect(done.status).toBe('processed');
    expect(done.evidence_count).toBeGreaterThan(0);
    // The evidence says which page the interview ran on.
    const cards = (await o.call('GET', `/signals?session_id=${id}`)).body.signals;
    expect(cards.map((c: any) => [c.page_url, c.page_title])).toEqual(cards.map(() => [`${site.origin}/app/reports`, 'Shop']));
    await page.close();
  });

  it('asks before ending: "End interview" looks nothing like "I\'m done" and offers End or Keep going inline, by keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const { live, log } = await interviewStarted(page);

    // Not a twin of "I'm done": another row, no fill, no border, smaller, muted.
    const looks = (await shadow(page, `(() => {
      const b = (t) => [...root.querySelectorAll('button')].find((x) => x.textContent === t);
      const s = (t) => { const c = getComputedStyle(b(t)); return { bg: c.backgroundColor, border: c.borderTopStyle, size: c.fontSize }; };
      return { end: s('End interview'), done: s("I'm done"), sameRow: b('End interview').parentElement === b("I'm done").parentElement };
    })()`)) as { end: Record<string, string>; done: Record<string, string>; sameRow: boolean };
    expect(looks.sameRow).toBe(false);
    expect(looks.end).toEqual({ bg: 'rgba(0, 0, 0, 0)', border: 'none', size: '13px' });
    expect(looks.done.bg).toBe('rgb(10, 122, 90)');

    const focused = () => shadow(page, `root.activeElement && root.activeElement.textContent`);
    await live.getByRole('button', { name: 'End interview' }).focus();
    await page.keyboard.press('Enter');
    const confirm = live.getByRole('group', { name: 'End the interview now?' });
    await confirm.waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'widget-end-confirm-phone.png') });
    expect(await focused()).toBe('Keep going');
    expect(await live.getByRole('button', { name: 'End interview' }).isVisible()).toBe(false);
    // Escape keeps going: the panel stays open and the interview carries on.
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await live.isVisible()).toBe(true);
    expect(await focused()).toBe('End interview');
    await live.getByLabel('Your answer').fill('Last week.');
    await page.keyboard.press('Enter');
    await log.getByText('Could you say a bit more about that?').waitFor();
    // Keep going by its button, too.
    await live.getByRole('button', { name: 'End interview' }).click();
    await confirm.getByRole('button', { name: 'Keep going' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await focused()).toBe('End interview');
    // End, reached by keyboard, ends it.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('End');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Thank you' }).waitFor();
    // Ended before the script's closing words: a plain line, no second thank-you.
    expect(await lastScreen(page)).toEqual(['Your answers have been sent.', 'You can close this panel.']);
    const mine = (await o.call('GET', '/sessions')).body.sessions.filter((s: any) => s.study_ref === studyRef).sort((a: any, b: any) => b.created_at.localeCompare(a.created_at))[0];
    const detail = (await o.call('GET', `/sessions/${mine.id}`)).body.session;
    expect(detail.status).toBe('completed');
    expect(detail.messages.filter((m: any) => m.role === 'participant').map((m: any) => m.content)).toEqual(['Last week.']);
    // Ended early counts as taken part, for this study only: the launcher thanks them, and another study still invites them.
    await page.locator('.vb-launcher').click();
    await page.locator('.vb-launcher').click();
    await page.getByRole('dialog', { name: 'Thank you' }).getByText('You have already taken part in this interview.').waitFor();
    const second = await o.call('POST', '/studies', {
      title: 'Second study', status: 'active', goals: script.goals, script,
      invitation: { ...invitation, presentation_mode: 'direct_link', panel: { ...invitation.panel, headline: 'A second invitation' } },
      visibility: { version: 1, enabled: false }, allowed_origins: [site.origin],
    });
    expect(second.status).toBe(201);
    await page.goto(second.body.study.recruitment_url);
    await page.getByRole('dialog', { name: 'A second invitation' }).getByRole('button', { name: 'Start' }).waitFor();
    await page.close();
  });

  it('keeps trying to reconnect after the server goes away, offers "Reconnect now", and carries on where it was', async () => {
    const page = await browser.newPage();
    await page.clock.install();
    // The conductor socket goes through this route: while `down`, every connection is refused, as by a restarting server.
    let down = false;
    let refused = 0;
    const open: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/api\/sdk\/conductor\/[^/]+\/ws/, (ws) => {
      if (down) {
        refused++;
        void ws.close();
        return;
      }
      ws.connectToServer();
      open.push(ws);
    });
    const { live, log } = await interviewStarted(page);

    down = true;
    await open.at(-1)!.close();
    await live.getByText('Reconnecting…').waitFor();
    // Past the quick tries (the old widget gave up after five, about 15 s, and said "Reconnecting…" for ever).
    for (let k = 0; k < 6; k++) await page.clock.fastForward(16_000);
    await live.getByText('The connection was lost. Trying again…').waitFor();
    expect(refused).toBeGreaterThanOrEqual(6);
    // Still trying on its own, every 15 s.
    const before = refused;
    await page.clock.fastForward(16_000);
    await expect.poll(() => refused).toBeGreaterThan(before);

    down = false;
    await live.getByRole('button', { name: 'Reconnect now' }).click();
    await live.getByRole('button', { name: 'Reconnect now' }).waitFor({ state: 'hidden' });
    await expect.poll(async () => live.getByText(/Reconnecting|connection was lost/).count()).toBe(0);
    await live.getByLabel('Your answer').fill('Last week.');
    await page.keyboard.press('Enter');
    await log.getByText('Could you say a bit more about that?').waitFor();
    await page.close();
  });

  it('shows the second task in the bar when "done" is typed at the end of the first', async () => {
    const res = await o.call('POST', '/studies', {
      title: 'Two tasks', status: 'active', goals: script.goals,
      script: { ...script, segments: [
        { id: 'one', mode: 'observe', title: 'Statement', instruction: "Task 1: find last month's statement." },
        { id: 'two', mode: 'observe', title: 'Dispute', instruction: 'Task 2: dispute a charge.' },
        script.segments[1],
      ] },
      invitation, visibility: visibility([['include', 'subtree', '/two-tasks']]), allowed_origins: [site.origin],
    });
    expect(res.status).toBe(201);
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${site.origin}/two-tasks/start`);
    await page.locator('.vb-launcher').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await page.getByRole('dialog').getByLabel('I agree that my answers may be used for research.').check();
    await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
    const bar = page.getByRole('dialog', { name: 'Your task' });
    await bar.waitFor();
    const task = () => shadow(page, `root.querySelector('.vb-task').textContent`) as Promise<string>;
    await expect.poll(task, { timeout: 15_000 }).toContain("last month's statement");
    await bar.getByLabel('Your answer').fill('done');
    await page.keyboard.press('Enter');
    await expect.poll(task, { timeout: 15_000 }).toContain('dispute a charge');
    await page.close();
  });

  it('asks a screener as its questions are meant (yes or no, a scale, an e-mail), and keeps the form with what to fix when an answer is refused', async () => {
    const screener = await o.call('POST', '/screeners', {
      title: 'Who are you', questions: [
        { question_text: 'Do you export reports yourself?', question_type: 'yes_no', qualification_rules: { qualify: ['yes'] } },
        { question_text: 'How often, from 1 to 5?', question_type: 'scale', min_value: 1, max_value: 5 },
        { question_text: 'Your work e-mail', question_type: 'email', required: false },
      ],
    });
    expect(screener.status, JSON.stringify(screener.body)).toBe(201);
    const res = await o.call('POST', '/studies', {
      title: 'Screened', status: 'active', goals: script.goals, script, invitation, intake_ref: screener.body.intake.ref,
      visibility: visibility([['include', 'subtree', '/screened']]), allowed_origins: [site.origin],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${site.origin}/screened/start`);
    await page.locator('.vb-launcher').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Start' }).click();
    await dialog.getByLabel('I agree that my answers may be used for research.').check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const yesNo = dialog.getByRole('group', { name: 'Do you export reports yourself? *' });
    await expect.poll(() => yesNo.getByRole('radio').count(), { timeout: 15_000 }).toBe(2);
    expect(await dialog.getByRole('textbox', { name: 'Your work e-mail' }).getAttribute('type')).toBe('email');
    await yesNo.getByLabel('Yes').check();
    // A browser that does not check the form itself sends a 9 on a scale of 1 to 5: the server refuses it and the form stays.
    await shadow(page, `root.querySelector('form').noValidate = true`);
    const scale = dialog.getByRole('spinbutton', { name: 'How often, from 1 to 5? *' });
    await scale.fill('9');
    const email = dialog.getByRole('textbox', { name: 'Your work e-mail' });
    await email.fill('not an address');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent(), { timeout: 10_000 }).toBe(
      'Please check your answer to "How often, from 1 to 5?": it must be at most 5. Please check your answer to "Your work e-mail": it must be an e-mail address.',
    );
    await scale.fill('4');
    await email.fill('');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => shadow(page, `[...root.querySelectorAll('.vb-msg-conductor')].length`), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.close();
    // A typed "No" is an answer too, and one that does not qualify.
    const question = (await svc.api('GET', `/api/sdk/screener/${screener.body.intake.ref}`, { headers: { 'x-project-key': o.project.public_key, origin: site.origin } })).body.questions[0];
    const typed = await svc.api('POST', `/api/sdk/screener/${screener.body.intake.ref}/respond`, {
      headers: { 'x-project-key': o.project.public_key, origin: site.origin },
      body: { answers: { [question.id]: ' No', [screener.body.questions[1].id]: 2 }, consent_given: true },
    });
    expect(typed.status, JSON.stringify(typed.body)).toBe(201);
    expect(typed.body.qualified).toBe(false);
  });

  it('during a task on a phone, shrinks to a bar docked at the bottom that leaves the page usable, not modal, focus free; "I\'m done" brings the panel back', async () => {
    const res = await o.call('POST', '/studies', {
      title: 'Task study', status: 'active', goals: script.goals,
      script: { ...script, segments: [script.segments[0], { id: 'try', mode: 'observe', title: 'Pay', instruction: "Pay this month's invoice as you normally would." }, script.segments[1]] },
      invitation, visibility: visibility([['include', 'subtree', '/tasks']]), allowed_origins: [site.origin],
    });
    expect(res.status).toBe(201);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${site.origin}/tasks/pay`);
    const launcher = page.locator('.vb-launcher');
    await launcher.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await page.getByRole('dialog').getByLabel('I agree that my answers may be used for research.').check();
    await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();

    const bar = page.getByRole('dialog', { name: 'Your task' });
    await bar.waitFor();
    // Measured once the panel's entry animation (a small slide) has finished.
    const layout = () => shadow(page, `(async () => {
      const p = root.querySelector('.vb-panel');
      await Promise.all(p.getAnimations().map((a) => a.finished));
      const r = p.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, width: r.width, modal: p.getAttribute('aria-modal'), launcher: root.querySelector('.vb-launcher').hidden,
        task: root.querySelector('.vb-task').textContent, conductor: [...root.querySelectorAll('.vb-msg-conductor')].at(-1).lastChild.textContent };
    })()`) as Promise<{ top: number; bottom: number; left: number; width: number; modal: string | null; launcher: boolean; task: string; conductor: string }>;
    const compact = await layout();
    // Docked along the bottom edge, at most two fifths of the screen, the launcher out of its way; the task is the conductor's prompt.
    expect(compact).toMatchObject({ bottom: 844, left: 0, width: 390, modal: null, launcher: true });
    expect(compact.top).toBeGreaterThan(844 * 0.6);
    // The page can scroll its last lines out from under the bar.
    // Set on the next animation frame after the bar shows: waited for, as a loaded machine may paint late.
    await expect.poll(() => page.evaluate('parseFloat(getComputedStyle(document.body).paddingBottom)')).toBeGreaterThanOrEqual(844 - compact.top);
    expect(compact.task).toBe(compact.conductor);
    expect(compact.task).toContain('invoice');
    expect(await bar.getByRole('button', { name: 'End interview' }).isVisible()).toBe(false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'widget-observe-phone.png') });

    // The page is the participant's: its button takes a tap, and the keyboard reaches it.
    await page.locator('#pay').click({ timeout: 3000 });
    await bar.getByLabel('Your answer').focus();
    expect(await leaveByKeyboard(page, 'Pay invoice')).toBe(true);
    // Hidden and shown again, it is still the bar.
    await bar.getByRole('button', { name: 'Close' }).click();
    expect(await launcher.isVisible()).toBe(true);
    expect(await launcher.textContent()).toBe('Continue interview'); // an interview is under way
    expect(await page.evaluate('document.body.style.paddingBottom')).toBe('');
    await launcher.click();
    await bar.waitFor();
    expect(await launcher.isVisible()).toBe(false);
    // A question typed in the bar is answered there; a reload during the task comes back as the bar, with the same task (not the answer).
    await bar.getByLabel('Your answer').fill('Where do I find the invoices?');
    await page.keyboard.press('Enter');
    await bar.getByText(ON_YOUR_OWN, { exact: true }).waitFor();
    await page.reload();
    await bar.waitFor();
    expect(await layout()).toMatchObject({ task: compact.task, modal: null, launcher: true, bottom: 844 });
    expect(await shadow(page, `root.querySelector('.vb-teaser')`)).toBeNull();

    await bar.getByRole('button', { name: "I'm done" }).click();
    const live = page.getByRole('dialog', { name: 'Interview' });
    await live.getByRole('log').getByText('Could you tell me about the last time you exported a report?').waitFor();
    const full = await layout();
    expect(full).toMatchObject({ modal: 'true', launcher: false });
    expect(full.top).toBeLessThan(compact.top);
    expect(await page.evaluate('document.body.style.paddingBottom')).toBe('');
    // Focus is kept in the full panel again.
    await live.getByLabel('Your answer').focus();
    expect(await leaveByKeyboard(page, 'Pay invoice')).toBe(false);

    const mine = (await o.call('GET', '/sessions')).body.sessions.find((x: any) => x.study_ref === res.body.study.ref);
    const events = (await o.call('GET', `/sessions/${mine.id}`)).body.session.events;
    expect(events.filter((e: any) => e.event_type === 'click').map((e: any) => [e.event_line, e.data.segment_mode])).toEqual([['clicked button "Pay invoice"', 'observe']]);
    await page.close();
  });

  it('shows nothing on a site whose origin the study does not allow, records why, and creates no interview', async () => {
    const before = (await o.call('GET', '/sessions')).body.sessions.length;
    const page = await browser.newPage();
    const refused = page.waitForResponse((r) => r.url().includes('/api/sdk/placement'));
    await page.goto(`${other.origin}/app/reports`);
    const res = await refused;
    expect(res.status()).toBe(403);
    expect(((await res.json()) as any).code).toBe('origin_not_allowed');
    await page.waitForTimeout(300);
    expect(await page.locator('#verbatim-widget').count()).toBe(0);
    const study = (await o.call('GET', `/studies/${studyRef}`)).body.study;
    expect(study.origin_guard_failure).toMatchObject({ code: 'origin_not_allowed', request_origin: other.origin, allowed_origins: [site.origin] });
    expect((await o.call('GET', '/sessions')).body.sessions.length).toBe(before);
    await page.close();
  });

  it('opens a direct-link invitation from its recruitment_url, with no launcher', async () => {
    const res = await o.call('POST', '/studies', {
      title: 'Invite only', status: 'active', goals: script.goals, script,
      invitation: { ...invitation, presentation_mode: 'direct_link', panel: { ...invitation.panel, headline: 'A private invitation' } },
      visibility: { version: 1, enabled: false }, allowed_origins: [site.origin],
    });
    expect(res.status).toBe(201);
    const url = res.body.study.recruitment_url;
    expect(url).toBe(`${site.origin}/?verbatim_study=invite-only`);
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByRole('dialog', { name: 'A private invitation' }).waitFor();
    expect(await page.locator('.vb-launcher').count()).toBe(0);
    await page.close();
  });

  it('serves the demo page with the widget', async () => {
    const page = await browser.newPage();
    await page.goto(`${svc.url}/sdk/demo?key=${o.project.public_key}&path=/app/demo`);
    await page.locator('.vb-launcher').waitFor({ timeout: 5000 });
    expect(await page.locator('.vb-launcher').textContent()).toBe('Tell us about exports');
    await page.close();
  });

  it('runs the starter study on a fresh project\'s demo page in natural questions, ending with its closing words', async () => {
    const fresh = await ownerWithProject(svc, 'fresh-widget@example.com', 'Fresh');
    const demo = (await fresh.call('GET', '/widget-setup')).body.demo_url;
    const page = await browser.newPage();
    await page.goto(demo);
    const launcher = page.locator('.vb-launcher');
    await launcher.waitFor({ timeout: 5000 });
    expect(await launcher.textContent()).toBe('Share feedback');
    await launcher.click();
    const dialog = page.getByRole('dialog', { name: 'Have ten minutes to tell us how it went?' });
    await dialog.waitFor();
    // Who asks, said before anyone starts (a walkthrough's participant asked "are you a real person or a bot?").
    await dialog.getByText('A short conversation with our automated interviewer', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Start the conversation' }).click();
    await dialog.getByLabel('I agree that my answers may be used for research.').check();
    // Voice is offered with no model (built-in transcription), so recording the voice is asked for, optionally; the screen never is.
    expect(await dialog.getByRole('checkbox').count()).toBe(2);
    expect(await dialog.getByLabel('You may record my voice if I choose to answer out loud (optional).').isChecked()).toBe(false);
    expect(await dialog.getByText(/screen/i).count()).toBe(0);
    expect(await dialog.getByText(/Consent copy|widget-20/).count()).toBe(0); // the copy's version is recorded, not shown
    await dialog.getByText('While you show us a task, we also note what you click on this page.', { exact: false }).waitFor(); // clicks are recorded while observing
    await dialog.getByRole('button', { name: 'Continue' }).click();

    const live = page.getByRole('dialog', { name: 'Interview' });
    const log = live.getByRole('log', { name: 'Conversation' });
    const answer = live.getByLabel('Your answer');
    const asked = async (question: string) => {
      await log.getByText(question).waitFor();
      return (await log.locator('.vb-msg-conductor').allInnerTexts()).map((t) => t.replace(/^Interviewer:\s*/, ''));
    };
    const reply = async (text: string) => {
      await answer.fill(text);
      await page.keyboard.press('Enter');
    };
    await asked('What did you come to do today?');
    await reply('Invoices.');
    await asked('Could you tell me more about invoices?');
    await reply('Last Tuesday I had to send twelve invoices to clients and the PDF export kept timing out on me.');
    await asked('What did you use for it before?');
    // The answers told a recent occasion: the script's "last time" question is not asked.
    await reply('A spreadsheet and a lot of email, honestly.');
    // The task: the panel becomes a bar with the task, a composer for notes and "I'm done", and leaves the page to the participant.
    const bar = page.getByRole('dialog', { name: 'Your task' });
    await bar.getByText('Could you go ahead with what you came to do today, as you normally would, and tell me what you notice along the way?', { exact: true }).waitFor();
    expect(await log.isVisible()).toBe(false);
    expect(await bar.getAttribute('aria-modal')).toBeNull();
    // While observing, a text interview takes what the participant notices as they go, and the interviewer stays silent.
    await bar.getByText("Use the page as you normally would. Type what you notice as you go, then press I'm done.").waitFor();
    const note = bar.getByLabel('Your answer');
    expect(await note.getAttribute('placeholder')).toBe('Type what you notice as you go (optional)…');
    await note.fill('Export is under Settings, not Reports, took me a while.');
    await page.keyboard.press('Enter');
    await bar.getByText('Noted: “Export is under Settings, not Reports, took me a while.”', { exact: false }).waitFor();
    // A question typed during the task is heard, without guidance, in the bar; the task stays the task.
    await note.fill('Where is the bulk export?');
    await page.keyboard.press('Enter');
    await bar.getByText(ON_YOUR_OWN, { exact: true }).waitFor();
    expect(await bar.locator('.vb-task').textContent()).toBe('Could you go ahead with what you came to do today, as you normally would, and tell me what you notice along the way?');
    expect(await shadow(page, `root.activeElement && root.activeElement.tagName`)).toBe('TEXTAREA'); // a note keeps the composer
    // Focus is not held: Shift+Tab leaves the bar for the page, whose button takes the click (noted as a cue).
    expect(await leaveByKeyboard(page, 'Export report')).toBe(true);
    await page.locator('button.export').click({ timeout: 3000 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'widget-observe.png') });
    await bar.getByRole('button', { name: "I'm done" }).click();
    await asked('How did it go for you?');
    // The full panel is back, modal again.
    expect(await live.getAttribute('aria-modal')).toBe('true');
    expect(await log.textContent()).toContain('Export is under Settings, not Reports, took me a while.');
    await reply('Fine.');
    await asked('Could you say a bit more about that?');
    await reply('Not really.');
    // The note already said what took a while, and a no is the answer: nothing asks what took longer or what they did at that point.
    await asked('What would make the product more useful to you?');
    // A wish put as a question is the answer, not a question for the interviewer to acknowledge.
    await reply('Can it export in bulk? A bulk export that works without timing out.');
    const turns = await asked('Is there anything else you would like to tell us?');
    expect(turns).not.toContain(ACKNOWLEDGEMENT);
    await reply('No, thanks.');
    // The closing words stay on the last screen, under a heading that no longer asks; nothing written for the interviewer reached the participant.
    const last = page.getByRole('dialog', { name: 'Thank you' });
    await last.getByText(starterScript.segments.at(-1)!.speak_text!).waitFor();
    // The closing words, then what to do now: nothing that thanks or names the team again.
    const lines = await lastScreen(page);
    expect(lines).toEqual([starterScript.segments.at(-1)!.speak_text!, 'You can close this panel.']);
    expect(`${await last.getByRole('heading').textContent()} ${lines.join(' ')}`.match(/the team/gi)).toHaveLength(1);
    await page.screenshot({ path: path.join(ARTIFACTS, 'widget-starter-done.png') });
    // Reopening the launcher does not offer the same ten minutes again.
    await launcher.click();
    await launcher.click();
    await last.getByText('You have already taken part in this interview.').waitFor();
    expect(await last.getByRole('button', { name: 'Start the conversation' }).count()).toBe(0);
    expect(await last.getByText('Help us improve').isVisible()).toBe(false);
    for (const t of turns) expect(directedText(t), t).toBeNull();
    expect(turns.filter((t) => /example|last time|at that point/.test(t))).toEqual([]);
    const [session] = (await fresh.call('GET', '/sessions')).body.sessions;
    const stored = (await fresh.call('GET', `/sessions/${session.id}`)).body.session;
    expect(stored).toMatchObject({ interview_mode: 'text', consent_data_use: true, consent_recording: false });
    expect(stored.events.filter((e: any) => e.event_type === 'click').map((e: any) => e.event_line)).toEqual(['clicked button "Export report"']);
    // The demo names its page with data-pathname, and that is the page the interview ran on (walkthrough 47: every page read "/sdk/demo").
    const page0 = new URL(demo).searchParams.get('path') ?? '/';
    expect(stored.events.filter((e: any) => e.event_type === 'page_view').map((e: any) => e.event_line)[0]).toBe(`page: ${new URL(demo).origin}${page0}`);
    await page.close();
  });

  it('asks to record only the voice, and only where voice is offered; a participant who agrees and then types is not stored as recorded', async () => {
    const voiced = await ownerWithProject(svc, 'voiced-widget@example.com', 'Voiced');
    expect((await voiced.call('PATCH', '/settings', { openai_api_key: 'sk-widget-test', openai_base_url: fake.url })).status).toBe(200);
    const page = await browser.newPage();
    await page.goto((await voiced.call('GET', '/widget-setup')).body.demo_url);
    await page.locator('.vb-launcher').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Start the conversation' }).click();
    await dialog.getByLabel('I agree that my answers may be used for research.').check();
    // Exactly what would be recorded, and nothing about the screen.
    expect(await dialog.getByRole('checkbox').count()).toBe(2);
    await dialog.getByLabel('You may record my voice if I choose to answer out loud (optional).').check();
    expect(await dialog.getByText(/screen/i).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('How would you like to answer?').waitFor();
    await dialog.getByRole('button', { name: 'Type' }).click();
    await dialog.getByRole('log', { name: 'Conversation' }).getByText('Tell me more.').waitFor();
    const [session] = (await voiced.call('GET', '/sessions')).body.sessions;
    expect((await voiced.call('GET', `/sessions/${session.id}`)).body.session).toMatchObject({ interview_mode: 'text', consent_data_use: true, consent_recording: false });
    await page.close();
  });
});

describe('widget setup', () => {
  it('gives the embed snippet and checks a page for it', async () => {
    const setup = await o.call('GET', '/widget-setup');
    expect(setup.status).toBe(200);
    expect(setup.body.snippet).toBe(`<script src="${svc.url}/sdk/widget.js" data-project-key="${o.project.public_key}" async></script>`);
    expect(setup.body.steps.length).toBeGreaterThan(2);
    expect(setup.body.studies.find((s: any) => s.study_ref === studyRef)).toMatchObject({ presentation_mode: 'contextual', allowed_origins: [site.origin] });

    const good = await o.call('POST', '/widget-installation/verify', { url: `${site.origin}/app/reports` });
    expect(good.body).toMatchObject({ installed: true, problems: [], placement: { outcome: 'match', study_ref: studyRef } });
    const elsewhere = await o.call('POST', '/widget-installation/verify', { url: `${other.origin}/app/reports` });
    expect(elsewhere.body.installed).toBe(false);
    expect(elsewhere.body.problems.map((p: any) => p.code)).toEqual(['origin_not_allowed']);
    const missing = await o.call('POST', '/widget-installation/verify', { url: `${svc.url}/api/health` });
    expect(missing.body.problems.map((p: any) => p.code)).toEqual(['snippet_missing']);
    expect((await o.call('POST', '/widget-installation/verify', { url: `${site.origin}/broken` })).body.problems.map((p: any) => p.code)).toEqual(['snippet_missing']);
    const nowhere = await o.call('POST', '/widget-installation/verify', { url: 'http://no-such-host.invalid/' });
    expect(nowhere.body).toMatchObject({ installed: false, problems: [{ code: 'page_unreachable' }] });
    expect((await o.call('POST', '/widget-installation/verify', { url: 'ftp://example.com/' })).status).toBe(400);
    expect((await o.call('POST', '/widget-installation/verify', { url: 'http://169.254.169.254/latest/meta-data' })).body.code).toBe('url_not_allowed');

    const mcp = await svc.mcp(o.token);
    const viaMcp = await mcp.callTool({ name: 'projects.get_widget_setup', arguments: { projectRef: o.project.project_ref } });
    expect((viaMcp.structuredContent as any).snippet).toBe(setup.body.snippet);
    const checked = await mcp.callTool({ name: 'projects.verify_widget_installation', arguments: { projectRef: o.project.project_ref, url: `${site.origin}/app/reports` } });
    expect((checked.structuredContent as any).installed).toBe(true);
  });
});
