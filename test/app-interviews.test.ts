import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { smtpInbox, type Inbox } from './helpers/smtp.ts';
import { launchBrowser } from './helpers/browser.ts';
import { accessible, createProject, shots, signIn as signInAs } from './helpers/workspace.ts';
import { FIXTURES } from './helpers/extractor-eval.ts';
import { ffmpeg, mediaDir, speech, timedConversation } from './helpers/media.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';

/** The interviews area of the workspace: adding interviews by drop and upload, and reading one. */

const KEY = 'sk-test-interviews';
let svc: TestService;
let inbox: Inbox;
let fake: FakeOpenAI;
let browser: Browser;

beforeAll(async () => {
  inbox = await smtpInbox();
  fake = await fakeOpenAI(KEY);
  svc = await startTestService({ env: { SMTP_URL: inbox.url, WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true', TRANSCRIPTION_URL: fake.url, TRANSCRIPTION_API_KEY: KEY } });
  browser = await launchBrowser(['--autoplay-policy=no-user-gesture-required']);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await fake?.close();
  await inbox?.close();
});

/** A signed-in researcher on the interviews page of a new project. */
async function onInterviews(email: string, name: string): Promise<{ page: Page; org: string; project: string }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signInAs(page, svc, inbox, email);
  const { org, project } = await createProject(page, name);
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Interviews' }).click();
  await page.getByRole('heading', { name: 'Interviews', level: 1 }).waitFor();
  return { page, org, project };
}

const row = (page: Page, name: string) => page.locator('tbody tr', { hasText: name });
const uploadLabel = (page: Page, file: string) => page.locator('.cards li', { hasText: file }).getByTestId('upload-label');

describe('interviews in the workspace', () => {
  it('imports a dropped transcript, follows it to processed, and shows its evidence marked at the quoted words', async () => {
    const { page, org, project } = await onInterviews('ines@example.com', 'Checkout study');
    await accessible(page, 'interviews-empty');

    await page.getByLabel('Participant name (optional)').fill('Maria');
    // The interview can go to an active study, so its goals count it (walkthrough 43).
    await page.getByLabel('Study (optional)').selectOption({ label: 'Getting to know your users' });
    const text = fs.readFileSync(path.join(FIXTURES, 'checkout.txt'), 'utf8');
    const drop = await page.evaluateHandle(`(() => { const dt = new DataTransfer(); dt.items.add(new File([${JSON.stringify(text)}], 'checkout.txt', { type: 'text/plain' })); return dt; })()`);
    await page.dispatchEvent('[data-testid=drop-zone]', 'drop', { dataTransfer: drop });
    // Followed after it was sent: extracting, then how it ended, with a way to the interview.
    await page.getByText(/Imported; evidence is being extracted\.|Processed: /).waitFor();
    await page.getByRole('status').filter({ hasText: /Processed: \d+ evidence cards?/ }).getByRole('link', { name: 'Open the interview' }).waitFor({ timeout: 60_000 });
    await row(page, 'Maria').locator('.badge[data-status=processed]').waitFor({ timeout: 60_000 });
    expect(Number(await row(page, 'Maria').locator('td').nth(4).textContent())).toBeGreaterThan(0);
    // What the interview was about, under its name, so interviews without a name can be told apart.
    await expect.poll(() => row(page, 'Maria').locator('.iv-gist').count()).toBe(1);
    expect((await row(page, 'Maria').locator('.iv-gist').textContent())!.length).toBeGreaterThan(5);
    // Nothing is wider than a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Search and filters narrow the list.
    await page.getByLabel('Search participants').fill('nobody');
    await page.getByText('No interview matches the search.').waitFor();
    await page.getByLabel('Search participants').fill('mar');
    await row(page, 'Maria').waitFor();
    await page.getByLabel('Processing').selectOption('failed');
    await row(page, 'Maria').waitFor({ state: 'detached' });
    await page.getByLabel('Processing').selectOption('processed');
    await row(page, 'Maria').waitFor();
    await accessible(page, 'interviews');
    await shots(page, 'interviews');

    await row(page, 'Maria').getByRole('link', { name: 'Maria' }).click();
    await page.waitForURL(/\/interviews\/int_/);
    await page.getByRole('heading', { name: 'Maria' }).waitFor();
    const id = page.url().split('/').pop()!;
    const { token } = await svc.login('ines@example.com');
    const { body } = await svc.api('GET', `/api/orgs/${org}/projects/${project}/signals?session_id=${id}&limit=200`, { token });
    const signals = body.signals as Array<{ id: string; quote: string; headline: string | null; signal_type: string; timestamp_ms: number | null }>;
    expect((await svc.api('GET', `/api/orgs/${org}/projects/${project}/sessions/${id}`, { token })).body.session.study_ref).toBeTruthy();
    expect(signals.length).toBeGreaterThan(0);
    await page.locator('mark').first().waitFor();
    // The evidence beside the transcript is in the order it was said.
    const listed = await page.locator('.iv-cards blockquote').allTextContents();
    expect(listed).toEqual([...signals].sort((x, y) => (x.timestamp_ms ?? Infinity) - (y.timestamp_ms ?? Infinity)).map((s) => s.quote));
    // Each says what kind of evidence it is (walkthrough 28: a wrong type was invisible here).
    expect(await page.locator('.iv-cards .iv-type').allTextContents()).toEqual([...signals].sort((x, y) => (x.timestamp_ms ?? Infinity) - (y.timestamp_ms ?? Infinity)).map((s) => s.signal_type.replace(/_/g, ' ')));
    // Each mark holds exactly the words of its card's quote, inside the line that says them.
    const marks = await page.locator('mark').evaluateAll((ms) => ms.map((m) => ({ id: m.getAttribute('data-signal'), text: m.textContent, line: m.closest('li')!.textContent })));
    expect(marks.length).toBeGreaterThan(0);
    for (const m of marks) {
      const s = signals.find((x) => x.id === m.id)!;
      expect(m.text!.toLowerCase()).toBe(s.quote.trim().replace(/\s+/g, ' ').toLowerCase());
      expect(text.toLowerCase()).toContain(m.text!.toLowerCase());
    }
    const first = signals.find((s) => s.id === marks[0].id)!;
    await page.locator(`mark[data-signal="${first.id}"]`).click();
    const card = page.locator('.iv-picked');
    await card.waitFor();
    expect(await card.locator('blockquote').textContent()).toBe(first.quote);
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('picked');
    // A mark is reached and chosen from the keyboard too.
    const other = signals.find((s) => s.id === marks[marks.length - 1].id)!;
    await page.locator(`mark[data-signal="${other.id}"]`).focus();
    await page.keyboard.press('Enter');
    await card.locator('blockquote', { hasText: other.quote }).waitFor();
    // A card picked in the evidence list takes the transcript to its words.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.locator('.iv-cards li', { hasText: first.quote }).getByRole('button').click();
    await page.waitForFunction(`document.activeElement?.getAttribute('data-signal') === ${JSON.stringify(first.id)}`);
    const box = await page.locator(`mark[data-signal="${first.id}"]`).boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeLessThan(800);
    // Picked again after scrolling away, it goes there again.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.locator('.iv-cards li', { hasText: first.quote }).getByRole('button').click();
    await page.waitForFunction(`document.activeElement?.getAttribute('data-signal') === ${JSON.stringify(first.id)}`);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });
    await accessible(page, 'interview');
    await shots(page, 'interview');
    await page.emulateMedia({ colorScheme: 'dark' });
    await accessible(page, 'interview-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // A mark says its kind and is coloured by it; an import has no timeline to show.
    const typeOf = (t: string) => t.charAt(0).toUpperCase() + t.slice(1).replace(/_/g, ' ');
    expect(await page.locator(`mark[data-signal="${first.id}"]`).getAttribute('title')).toBe(`${typeOf(first.signal_type)}: ${first.headline}`);
    const tones = await page.locator('mark').evaluateAll((ms) => ms.map((m) => [m.getAttribute('data-signal'), m.getAttribute('data-tone')]));
    for (const [sid, tone] of tones) {
      const type = signals.find((x) => x.id === sid)!.signal_type;
      expect(tone).toBe(/struggling|critical|firing/.test(type) ? 'trouble' : /smooth|recovery|no_issue/.test(type) ? 'good' : 'other');
    }
    expect(await page.getByRole('heading', { name: 'Timeline' }).count()).toBe(0);
    // What the evidence comes to is said above the transcript.
    const summary = (await svc.api('GET', `/api/orgs/${org}/projects/${project}/sessions/${id}`, { token })).body.session.summary as string;
    expect(summary).toMatch(/^Evidence found: /);
    expect(await page.locator('.iv-summary').textContent()).toBe(summary);
    // Its cards are reviewed (dismissed, corrected) in the review queue, narrowed to this interview.
    await page.getByRole('link', { name: 'Review these cards' }).click();
    await page.waitForURL(new RegExp(`/evidence\\?interview=${id}$`));
    await page.getByText(new RegExp(`^${signals.length} cards?`)).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Maria' }).waitFor();

    // Reprocessing shows its progress and comes back processed.
    await page.getByRole('button', { name: 'Reprocess Maria' }).click();
    await page.locator('.row .badge[data-status=processed]').waitFor({ timeout: 60_000 });
    await page.locator('mark').first().waitFor({ timeout: 30_000 });
    await page.close();
  }, 240_000);

  it('uploads a recording with a progress bar to 100 %, then plays it in step with the transcript', async () => {
    const { page } = await onInterviews('ravi@example.com', 'Recorded study');
    fake.transcriptSegments = [
      { start: 0, end: 2.5, text: "I couldn't find the export button anywhere." },
      { start: 2.5, end: 6, text: 'It was really frustrating, so I gave up on the report.' },
    ];
    const mp3 = await speech("I couldn't find the export button anywhere. It was really frustrating, so I gave up on the report.", 'app-interview', 'mp3');
    await page.getByLabel('Participant name (optional)').fill('Ravi');
    await page.getByLabel('Transcript or recording files').setInputFiles(mp3);
    await uploadLabel(page, 'app-interview.mp3').filter({ hasText: '(100 %)' }).waitFor({ timeout: 30_000 });
    const bar = page.getByRole('progressbar', { name: /app-interview\.mp3/ });
    const [value, max] = await bar.evaluate((p: any) => [p.value, p.max]);
    expect(max).toBe(fs.statSync(mp3).size);
    expect(value).toBe(max);
    await page.getByText(/Uploaded; the recording is queued for processing\.|Processed: |Processing failed/).waitFor();
    await row(page, 'Ravi').locator('.badge[data-status=processed]').waitFor({ timeout: 90_000 });

    await row(page, 'Ravi').getByRole('link', { name: 'Ravi' }).click();
    await page.locator('audio').waitFor();
    const second = page.locator('.iv-transcript > li').nth(1);
    await page.getByRole('button', { name: 'Play from 0:02' }).click();
    await page.locator('.iv-transcript > li:nth-child(2)[aria-current=true]').waitFor();
    expect(await page.locator('audio').evaluate((a: any) => a.currentTime)).toBeGreaterThanOrEqual(2.4);
    expect(await second.getAttribute('aria-current')).toBe('true');
    // Clicking a line seeks too.
    await page.locator('.iv-transcript > li').first().locator('.iv-who strong').click();
    await page.locator('.iv-transcript > li:nth-child(1)[aria-current=true]').waitFor();
    await accessible(page, 'interview-recording');
    await shots(page, 'interview-recording');

    // An MP4 of sound alone is played as sound: no empty video box above it.
    const m4 = path.join(path.dirname(mp3), 'sound-only.mp4');
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', mp3, '-vn', '-c:a', 'aac', m4]);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Interviews' }).click();
    await page.getByLabel('Participant name (optional)').fill('Rae');
    await page.getByLabel('Transcript or recording files').setInputFiles(m4);
    await row(page, 'Rae').locator('.badge[data-status=processed]').waitFor({ timeout: 90_000 });
    await row(page, 'Rae').getByRole('link', { name: 'Rae' }).click();
    await page.locator('audio').waitFor();
    expect(await page.locator('video').count()).toBe(0);
    await page.close();
  }, 240_000);

  it('names the interviewer and the participant of a recorded interview whose voices were told apart, and says how it was transcribed', async () => {
    const { page } = await onInterviews('wen@example.com', 'Two voices');
    const { file, segments } = await timedConversation('app-two-voices', [
      ['en-us', 'When did you last export a report?'],
      ['en-us+f3', 'Last Monday, and it took ages to finish.'],
      ['en-us', 'What did you do while you waited?'],
      ['en-us+f3', 'I made a coffee and checked my email.'],
    ]);
    fake.transcriptSegments = segments;
    await page.getByLabel('Participant name (optional)').fill('Wen');
    await page.getByLabel('Transcript or recording files').setInputFiles(file);
    await row(page, 'Wen').locator('.badge[data-status=processed]').waitFor({ timeout: 90_000 });
    await row(page, 'Wen').getByRole('link', { name: 'Wen' }).click();
    await page.locator('.iv-transcript > li').nth(3).waitFor();
    expect(await page.locator('.iv-transcript .iv-who strong').allInnerTexts()).toEqual(['Interviewer', 'Participant', 'Interviewer', 'Participant']);
    expect(await page.locator('.iv-format').innerText()).toBe('Transcribed by the transcription service.');
    await page.close();
  }, 120_000);

  it('shows what processing warned about, and transcribes the recording again once its cause is fixed', async () => {
    const { page } = await onInterviews('gus@example.com', 'Warned study');
    const mp3 = await speech('The export was slow again today.', 'app-warned', 'mp3');
    const before = fake.transcriptSegments;
    fake.transcriptSegments = []; // the service hears nobody
    try {
      await page.getByLabel('Participant name (optional)').fill('Gus');
      await page.getByLabel('Transcript or recording files').setInputFiles(mp3);
      await row(page, 'Gus').locator('.badge[data-status=processed]').waitFor({ timeout: 90_000 });
    } finally {
      fake.transcriptSegments = before;
    }
    await row(page, 'Gus').getByRole('link', { name: 'Gus' }).click();
    const warned = page.getByRole('region', { name: 'Processing warnings' });
    await warned.locator('[data-warning=no_speech_heard]').getByText('No speech was heard in the recording').waitFor();
    await page.getByText('No transcript yet.').waitFor();
    await accessible(page, 'interview-warned');

    fake.transcriptSegments = [{ start: 0, end: 3, text: 'The export was slow again today.' }];
    await warned.getByRole('button', { name: 'Transcribe again' }).click();
    await page.locator('.iv-transcript > li', { hasText: 'The export was slow again today.' }).waitFor({ timeout: 90_000 });
    await warned.waitFor({ state: 'detached' });
    await page.close();
  }, 180_000);

  it('says a transcript was imported before, and deletes the second copy after asking', async () => {
    const { page } = await onInterviews('hal@example.com', 'Twice study');
    const text = fs.readFileSync(path.join(FIXTURES, 'checkout.txt'), 'utf8');
    const input = page.getByLabel('Transcript or recording files');
    for (const name of ['Ana', 'Ana again']) {
      await page.getByLabel('Participant name (optional)').fill(name);
      await input.setInputFiles({ name: 'checkout.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
      await row(page, name).locator('.badge[data-status=processed]').waitFor({ timeout: 60_000 });
    }
    await row(page, 'Ana again').getByRole('link', { name: 'Ana again' }).click();
    const warned = page.getByRole('region', { name: 'Processing warnings' });
    await warned.locator('[data-warning=already_imported]').getByText(/already imported .* \(Ana\)/).waitFor();
    // What to do is said in the page's words, not the API's.
    expect(await warned.locator('[data-warning=already_imported]').textContent()).toMatch(/\("Delete interview" on its page\)/);
    expect(await warned.textContent()).not.toMatch(/P\/sessions|DELETE /);
    await page.getByRole('button', { name: 'Delete interview' }).click();
    const ask = page.getByRole('dialog', { name: 'Delete this interview?' });
    await accessible(page, 'interview-delete');
    // Cancel is the safe default: Enter on the opened dialog deletes nothing.
    await page.keyboard.press('Enter');
    await ask.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete interview' }).click();
    await ask.getByRole('button', { name: 'Delete interview' }).click();
    await page.getByRole('heading', { name: 'Interviews', level: 1 }).waitFor();
    await row(page, 'Ana again').waitFor({ state: 'detached' });
    await row(page, 'Ana').waitFor();
    await page.close();
  }, 180_000);

  it('retries a failed interview from the list and shows it getting processed', async () => {
    const { page } = await onInterviews('fay@example.com', 'Failing study');
    const mp3 = await speech('The export was slow.', 'app-failing', 'mp3');
    fake.status = 401; // the transcription service refuses the key
    try {
      await page.getByLabel('Participant name (optional)').fill('Fay');
      await page.getByLabel('Transcript or recording files').setInputFiles(mp3);
      await row(page, 'Fay').locator('.badge[data-status=failed]').waitFor({ timeout: 60_000 });
    } finally {
      fake.status = 200;
    }
    await page.getByLabel('Processing').selectOption('failed');
    await page.getByRole('button', { name: 'Retry Fay' }).click();
    // The filter no longer matches once it is queued again; the full list follows it to processed.
    await page.getByLabel('Processing').selectOption('');
    await row(page, 'Fay').locator('.badge[data-status=processed]').waitFor({ timeout: 60_000 });
    await page.close();
  }, 180_000);

  it('shows the frames of a screen recording and the text read on them', async () => {
    const { page } = await onInterviews('tess@example.com', 'Screen study');
    // Two screens, three seconds each, from screenshots of this browser.
    const dir = fs.mkdtempSync(path.join(mediaDir, 'screens-'));
    const shooter = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    let n = 1;
    for (const [title, line] of [['Checkout', 'Continue to payment'], ['Invoice settings', 'Export as spreadsheet']]) {
      await shooter.setContent(`<body style="font-family:sans-serif;margin:60px"><h1 style="font-size:64px">${title}</h1><p style="font-size:40px">${line}</p></body>`);
      const png = await shooter.screenshot();
      for (let i = 0; i < 3; i++) fs.writeFileSync(path.join(dir, `shot-${n++}.png`), png);
    }
    await shooter.close();
    const mp4 = path.join(mediaDir, 'screens.mp4');
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-framerate', '1', '-i', path.join(dir, 'shot-%d.png'), '-f', 'lavfi', '-i', 'sine=frequency=300:duration=6', '-r', '5', '-pix_fmt', 'yuv420p', '-shortest', mp4]);
    await page.getByLabel('Participant name (optional)').fill('Tess');
    await page.getByLabel('Transcript or recording files').setInputFiles(mp4);
    await row(page, 'Tess').locator('.badge[data-status=processed]').waitFor({ timeout: 120_000 });
    await row(page, 'Tess').getByRole('link', { name: 'Tess' }).click();
    const screen = page.locator('section[aria-labelledby=screen]');
    await screen.waitFor();
    await screen.locator('pre', { hasText: 'Checkout' }).waitFor();
    await screen.locator('pre', { hasText: 'Invoice settings' }).waitFor();
    expect(await screen.getByRole('img', { name: /^Frame at 0:0\d$/ }).count()).toBe(2);
    // The frame images load (same-origin signed URLs, allowed by the page's policy).
    expect(await screen.locator('img').first().evaluate((i: any) => i.complete && i.naturalWidth > 0)).toBe(true);
    // A frame's time plays the recording from where that screen was shown, again and again.
    const second = screen.getByRole('link', { name: /^At 0:0[1-9]: play from where this screen was shown$/ });
    await second.click();
    await page.waitForURL(/\?t=\d+&play=\d+$/);
    const at = Number(new URL(page.url()).searchParams.get('t')) / 1000;
    // It plays from there (walkthrough 42: it only moved there, paused).
    await expect.poll(() => page.locator('video').evaluate((v: any, from: number) => !v.paused && v.currentTime >= from - 0.05, at)).toBe(true);
    await page.locator('video').evaluate((v: any) => v.pause());
    await page.locator('video').evaluate((v: any) => (v.currentTime = 0));
    await screen.getByRole('link', { name: /^At 0:00: play/ }).click();
    await second.click();
    await expect.poll(() => page.locator('video').evaluate((v: any, from: number) => v.currentTime >= from - 0.05 && v.currentTime < from + 3, at)).toBe(true);
    // The frame's picture leads there too.
    await screen.getByRole('link', { name: /^At 0:00: play/ }).click();
    await page.locator('video').evaluate((v: any) => v.pause());
    await screen.locator('img').nth(1).click();
    await expect.poll(() => page.locator('video').evaluate((v: any, from: number) => v.currentTime >= from - 0.05, at)).toBe(true);
    // Chosen again after moving on, the same frame goes back there (walkthrough 48).
    await page.locator('video').evaluate((v: any) => (v.pause(), (v.currentTime = 0)));
    await second.click();
    await expect.poll(() => page.locator('video').evaluate((v: any, from: number) => v.currentTime >= from - 0.05 && v.currentTime < from + 3, at)).toBe(true);
    // A card's link from elsewhere (?t=) opens the recording at its moment, cued (walkthrough 48: it stayed at 0:00).
    await page.goto(page.url().replace(/\?.*$/, `?t=${Math.round(at * 1000)}`));
    await expect.poll(() => page.locator('video').evaluate((v: any, from: number) => Math.abs(v.currentTime - from) < 0.2 && v.paused, at), { timeout: 20_000 }).toBe(true);
    await accessible(page, 'interview-screen');
    await shots(page, 'interview-screen');
    await page.close();
  }, 240_000);

  it('resumes an upload whose part failed on the network, sending only the part that failed again', async () => {
    const { page } = await onInterviews('noor@example.com', 'Long recordings');
    // 400 s of 48 kHz stereo WAV: about 73 MiB, two parts of the server's 64 MiB.
    const wav = path.join(mediaDir, 'long-silence.wav');
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo', '-t', '400', '-c:a', 'pcm_s16le', wav]);
    const puts: number[] = [];
    page.on('request', (r) => {
      const m = /\/api\/storage\/uploads\/[^/]+\/(\d+)\?/.exec(r.url());
      if (m && r.method() === 'PUT') puts.push(Number(m[1]));
    });
    const PART_2 = /\/api\/storage\/uploads\/[^/]+\/2\?/;
    let secondPart = 0;
    await page.route(PART_2, async (route) => {
      if (secondPart++ === 0) return route.abort('connectionreset');
      return route.continue();
    });
    await page.getByLabel('Participant name (optional)').fill('Noor');
    await page.getByLabel('Transcript or recording files').setInputFiles(wav);
    await uploadLabel(page, 'long-silence.wav').filter({ hasText: '(100 %)' }).waitFor({ timeout: 60_000 });
    await page.getByText(/Uploaded; the recording is queued for processing\.|Processed: |Processing failed/).waitFor({ timeout: 30_000 });
    expect(secondPart).toBe(2);
    expect(puts.filter((n) => n === 1)).toHaveLength(1);
    expect(puts.filter((n) => n === 2)).toHaveLength(2);
    await row(page, 'Noor').waitFor();

    // A network down for longer than the retries pauses the upload; resuming sends only what the server lacks.
    await page.unroute(PART_2);
    await page.route(PART_2, (route) => route.abort('internetdisconnected'));
    puts.length = 0;
    await page.getByLabel('Participant name (optional)').fill('Noor again');
    await page.getByLabel('Transcript or recording files').setInputFiles(wav);
    const resume = page.getByRole('button', { name: 'Resume long-silence.wav' });
    await resume.waitFor({ timeout: 60_000 });
    expect(await page.getByText('Upload paused: the parts already sent are kept.').count()).toBe(1);
    await page.unroute(PART_2);
    await resume.click();
    // The newest upload is listed first.
    await page.getByRole('list', { name: 'Uploads' }).locator('> li').first().getByText(/Uploaded; the recording is queued for processing\.|Processed: |Processing failed/).waitFor({ timeout: 60_000 });
    expect(puts.filter((n) => n === 1)).toHaveLength(1);
    await row(page, 'Noor again').waitFor();
    await page.close();
  }, 240_000);

  it('refuses a file over the size limit before sending anything', async () => {
    const { page } = await onInterviews('ola@example.com', 'Big files');
    const sent: string[] = [];
    page.on('request', (r) => {
      if (/import-transcript|media-uploads|\/api\/storage\//.test(r.url())) sent.push(r.url());
    });
    await page.getByLabel('Transcript or recording files').setInputFiles({ name: 'huge.txt', mimeType: 'text/plain', buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 'a') });
    await page.getByRole('alert').filter({ hasText: 'huge.txt is 5.0 MiB; a transcript can be at most 5 MiB. It was not uploaded.' }).waitFor();
    // A 2 GiB transcript (sparse) dropped on the page is refused the same way, without being read.
    const twoGiB = path.join(mediaDir, 'two-gib.txt');
    fs.writeFileSync(twoGiB, '');
    fs.truncateSync(twoGiB, 2 * 1024 ** 3);
    await page.getByLabel('Transcript or recording files').setInputFiles(twoGiB);
    await page.getByRole('alert').filter({ hasText: /two-gib\.txt is 2(\.0)? GiB; a transcript can be at most 5 MiB/ }).waitFor();
    fs.rmSync(twoGiB);
    // A 21 GiB recording (a sparse file: nothing is written to disk).
    const big = path.join(mediaDir, 'whole-day.mp4');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 21 * 1024 ** 3);
    await page.getByLabel('Transcript or recording files').setInputFiles(big);
    await page.getByRole('alert').filter({ hasText: 'whole-day.mp4 is 21 GiB; a recording can be at most 20 GiB.' }).waitFor();
    fs.rmSync(big);
    expect(sent).toEqual([]);
    expect(await page.locator('progress').count()).toBe(0);
    await accessible(page, 'interviews-refused');
    await page.close();
  }, 120_000);

  it('opens an evidence card\'s moment (?t=) with that line marked', async () => {
    const { page, org, project } = await onInterviews('tia@example.com', 'Moments');
    const { token } = await svc.login('tia@example.com');
    const fd = new FormData();
    fd.set('transcript', new Blob([fs.readFileSync(path.join(FIXTURES, 'analytics.srt'))], { type: 'text/plain' }), 'analytics.srt');
    const imported = await fetch(`${svc.url}/api/orgs/${org}/projects/${project}/sessions/import-transcript`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: fd });
    const id = ((await imported.json()) as { session: { id: string } }).session.id;
    let card: { quote: string; timestamp_ms: number | null } | undefined;
    for (let i = 0; i < 120 && !card; i++) {
      const r = (await (await fetch(`${svc.url}/api/orgs/${org}/projects/${project}/signals?session_id=${id}&limit=50`, { headers: { authorization: `Bearer ${token}` } })).json()) as { signals: Array<{ quote: string; timestamp_ms: number | null }> };
      card = r.signals.filter((c) => c.timestamp_ms !== null && c.timestamp_ms > 0).at(-1);
      if (!card) await new Promise((r) => setTimeout(r, 500));
    }
    await page.goto(`${svc.url}/app/p/${org}/${project}/interviews/${id}?t=${card!.timestamp_ms}`);
    const marked = page.locator('.iv-transcript li[aria-current=true]');
    await marked.waitFor();
    expect(await marked.textContent()).toContain(card!.quote.slice(0, 30));
    await page.close();
  }, 120_000);
});
