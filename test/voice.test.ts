import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { chooseVoice, click, createVoiceStudy, customerPage, microphoneArgs, microphoneFile, shadow, voiceScript, voiceSession, waitFor } from './helpers/voice-widget.ts';
import { ownerWithProject, settled } from './helpers/fixtures.ts';
import { ARTIFACTS, launchBrowser } from './helpers/browser.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';
import { ffmpeg, mediaDir, speech } from './helpers/media.ts';

/**
 * Voice interviews without a realtime model, in Chromium with a fake microphone that plays
 * speech made for the test: the conductor's turns are spoken, each answer is recorded until the
 * participant pauses, uploaded as an audio chunk, transcribed by a loopback transcription
 * server and answered by the built-in conductor.
 */
const script = voiceScript('Ask: When did you last export a report, and how did it go?', 'Ask: What would make exporting easier for you?');
const KEY = 'sk-voice-test';

let svc: TestService;
let fake: FakeOpenAI;
let browser: Browser;
let denied: Browser;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let site: Awaited<ReturnType<typeof customerPage>>;
let studyRef: string;
let answerWav: string;

beforeAll(async () => {
  fake = await fakeOpenAI(KEY);
  svc = await startTestService({
    env: { WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true', TRANSCRIPTION_URL: fake.url, TRANSCRIPTION_API_KEY: KEY, VOICE_ANSWER_TIMEOUT_SECONDS: '2' },
  });
  o = await ownerWithProject(svc, 'voice@example.com', 'Voice');
  site = await customerPage(`${svc.url}/sdk/widget.js`, o.project.public_key);
  studyRef = await createVoiceStudy(o.call, script, site.origin);
  answerWav = await speech('The export was slow.', 'voice-short');
  browser = await launchBrowser(microphoneArgs(await microphoneFile('I exported the monthly report on Monday and it took ages.', 'voice-answer')));
  // A browser whose participant refuses the microphone.
  denied = await launchBrowser(['--use-fake-device-for-media-stream', '--deny-permission-prompts']);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await denied?.close();
  await site?.close();
  await fake?.close();
  await svc?.stop();
});

const openAndChooseVoice = (page: Page) => chooseVoice(page, `${site.origin}/reports`);

describe('voice interview in the widget (transcription path)', () => {
  it('says voice is available, and why not when a study keeps to text', async () => {
    const setup = (await o.call('GET', '/widget-setup')).body;
    const voiceStudy = setup.studies.find((s: any) => s.title === 'Voice study');
    expect(voiceStudy.voice).toEqual({ available: true, path: 'transcription', reason: null });
    // The same answer over MCP.
    const mcp = await svc.mcp(o.token);
    const viaMcp = await mcp.callTool({ name: 'projects.get_widget_setup', arguments: { projectRef: o.project.project_ref } });
    expect((viaMcp.structuredContent as any).studies.find((st: any) => st.title === 'Voice study').voice).toEqual({ available: true, path: 'transcription', reason: null });
    await mcp.close();
    const textOnly = await o.call('POST', '/studies', { title: 'Text only', goals: script.goals, script, settings: { interview_mode: 'text' } });
    const after = (await o.call('GET', '/widget-setup')).body.studies.find((s: any) => s.study_ref === textOnly.body.study.ref);
    expect(after.voice).toMatchObject({ available: false, path: null, reason: expect.stringContaining('text') });
  });

  it('runs a spoken interview: two answers are transcribed into messages, the conductor moves on, it ends, is processed and keeps the audio in time', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    fake.transcriptSegments = [{ start: 0, end: 3, text: 'I exported the monthly report on Monday and it took ages.' }];
    await openAndChooseVoice(page);
    // The first spoken answer becomes the participant's first message.
    await waitFor(page, `root.querySelectorAll('.vb-msg-participant').length >= 1`);
    fake.transcriptSegments = [{ start: 0, end: 3, text: 'I wish the export kept my filters.' }];
    await waitFor(page, `root.querySelectorAll('.vb-msg-participant').length >= 2 || root.textContent.includes('You can close this panel.')`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'widget-voice-phone.png') });
    // Follow-ups may ask for more; answer until the interview ends.
    await waitFor(page, `root.textContent.includes('You can close this panel.')`, 120_000);

    const sessions = (await o.call('GET', '/sessions?limit=10')).body.sessions as any[];
    const session = sessions.find((s) => s.interview_mode === 'voice');
    expect(session).toBeTruthy();
    await settled(o.call, session.id, 90_000);
    const read = (await o.call('GET', `/sessions/${session.id}`)).body.session;
    const answers = read.messages.filter((m: any) => m.role === 'participant');
    expect(answers.length).toBeGreaterThanOrEqual(2);
    expect(answers[0].content).toBe('I exported the monthly report on Monday and it took ages.');
    expect(answers.some((m: any) => m.content === 'I wish the export kept my filters.')).toBe(true);
    // Each spoken answer names its recording, and the recording starts before its message is written.
    const audio = read.chunks.filter((c: any) => c.type === 'audio');
    expect(audio.length).toBeGreaterThanOrEqual(2);
    for (const m of answers) {
      const chunk = audio.find((c: any) => c.chunk_index === m.audio_chunk_index);
      expect(chunk, `message ${m.content}`).toBeTruthy();
      expect(chunk.started_ms).toBe(m.timestamp_ms);
    }
    // The conductor moved from the first question to the second.
    const asked = read.messages.filter((m: any) => m.role === 'conductor').map((m: any) => m.content).join(' | ');
    expect(asked).toContain('What would make exporting easier for you?');
    // The merged recording spans the interview's clock up to the last answer.
    const full = await o.call('GET', `/sessions/${session.id}/media/audio/full`);
    expect(full.status).toBe(200);
    // In the merged recording the first answer's sound lies where its message says, with silence before it.
    const merged = Buffer.from(await (await fetch(full.body.url)).arrayBuffer());
    const pcm = execFileSync(ffmpeg, ['-v', 'error', '-i', 'pipe:0', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'], { input: merged, maxBuffer: 1 << 28 });
    const rms = (fromMs: number, toMs: number) => {
      let sum = 0;
      let n = 0;
      for (let i = Math.max(0, Math.round(fromMs * 16)) * 2; i < Math.min(pcm.length, Math.round(toMs * 16) * 2); i += 2, n++) sum += (pcm.readInt16LE(i) / 32768) ** 2;
      return n ? Math.sqrt(sum / n) : 0;
    };
    const at = answers[0].timestamp_ms;
    expect(rms(at, at + 6000)).toBeGreaterThan(0.01);
    expect(at).toBeGreaterThan(600);
    expect(rms(at - 500, at - 60)).toBeLessThan(0.001);
    const artifacts = (await o.call('GET', `/sessions/${session.id}/artifacts`)).body;
    expect(JSON.stringify(artifacts)).toContain('merged-audio');
    const evidence = (await o.call('GET', `/signals?session_id=${session.id}&limit=50`)).body.signals as any[];
    // Evidence from a spoken answer points at the moment that answer starts in the recording.
    const fromAnswers = evidence.filter((e) => answers.some((m: any) => m.content.includes(e.quote)));
    expect(fromAnswers.length, JSON.stringify(evidence.map((e) => e.quote))).toBeGreaterThan(0);
    for (const e of fromAnswers) expect(e.timestamp_ms).toBe(answers.find((m: any) => m.content.includes(e.quote)).timestamp_ms);
    await page.close();
  }, 240_000);

  it('resumes a voice interview after a reload, with its controls labelled, reachable by keyboard and in the invitation\'s colours', async () => {
    const page = await browser.newPage();
    fake.transcriptSegments = [{ start: 0, end: 3, text: 'I exported the monthly report on Monday and it took ages.' }];
    await openAndChooseVoice(page);
    await waitFor(page, `root.querySelectorAll('.vb-msg-participant').length >= 1`);
    await page.reload();
    await waitFor(page, `root.querySelector('.vb-voice') && !root.querySelector('.vb-voice').hidden && root.querySelectorAll('.vb-msg-participant').length >= 1`);
    // Every control says what it does, the level meter is named, and the state is announced.
    const controls = (await shadow(page, `[...root.querySelectorAll('.vb-voice button, .vb-row button')].filter((b) => !b.hidden).map((b) => b.getAttribute('aria-label') || b.textContent)`)) as string[];
    expect(controls.every((c) => c && c.trim().length > 0)).toBe(true);
    expect(controls).toEqual(expect.arrayContaining(['Mute', 'End interview']));
    expect(await shadow(page, `root.querySelector('.vb-meter').getAttribute('aria-label')`)).toBe('Microphone level');
    expect(await shadow(page, `root.querySelector('.vb-voice-state').getAttribute('role')`)).toBe('status');
    expect(await shadow(page, `getComputedStyle(root.querySelector('.vb-voice-state')).color`)).toBe('rgb(17, 34, 51)');
    // Keyboard: Tab reaches Mute, and Enter presses it.
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await shadow(page, `root.activeElement?.textContent`)) === 'Mute';
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    expect(await shadow(page, `root.activeElement.getAttribute('aria-pressed')`)).toBe('true');
    await click(page, 'End interview');
    await click(page, 'End');
    await waitFor(page, `root.textContent.includes('You can close this panel.')`);
    await page.close();
  }, 120_000);

  it('keeps the recording when transcription fails, says so, and takes a retry', async () => {
    const page = await browser.newPage();
    fake.status = 500;
    fake.transcriptSegments = [{ start: 0, end: 3, text: 'The export button is hard to find.' }];
    await openAndChooseVoice(page);
    await waitFor(page, `root.querySelector('[role=status]') && [...root.querySelectorAll('button')].some((b) => b.textContent === 'Try again' && !b.hidden)`);
    const told = (await shadow(page, `[...root.querySelectorAll('[role=status]')].map((e) => e.textContent).join(' ')`)) as string;
    expect(told).toMatch(/could not be transcribed/);
    fake.status = 200;
    await click(page, 'Try again');
    await waitFor(page, `[...root.querySelectorAll('.vb-msg-participant')].some((m) => m.textContent.includes('hard to find'))`);
    await page.close();
  }, 120_000);

  it('falls back to text when the microphone is refused, and the interview stays usable', async () => {
    const page = await denied.newPage();
    await openAndChooseVoice(page);
    await waitFor(page, `root.textContent.includes('continue in text')`);
    await waitFor(page, `root.querySelector('textarea') && !root.querySelector('.vb-compose').hidden`);
    expect(await shadow(page, `root.querySelector('.vb-voice').hidden`)).toBe(true);
    await shadow(page, `(() => { const t = root.querySelector('textarea'); t.value = 'Typed instead: exports are slow.'; t.dispatchEvent(new Event('input')); })()`);
    await click(page, 'Send');
    await waitFor(page, `[...root.querySelectorAll('.vb-msg-participant')].some((m) => m.textContent.includes('exports are slow'))`);
    await page.close();
  }, 120_000);

  it('refuses what cannot be an answer and keeps the turn open: a missing recording, a timeout, empty words, a recording that is not audio', async () => {
    const { id, conductor: c, upload } = await voiceSession(svc, o.project.public_key, site.origin, studyRef);

    expect((await upload(0, { buffer: Buffer.from('hello there, not audio'), filename: 'a.webm' })).status).toBe(415);
    c.send({ type: 'voice_answer', chunk_index: 7 });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'audio_chunk_not_found', chunk_index: 7 });

    expect((await upload(0, { file: answerWav })).status).toBe(201);
    let release!: () => void;
    fake.transcriptionGate = new Promise<void>((r) => (release = r));
    c.send({ type: 'voice_answer', chunk_index: 0 });
    expect(await c.next((f) => f.type === 'error', 15_000)).toMatchObject({ code: 'transcription_failed', retryable: true, chunk_index: 0 });
    release();
    fake.transcriptionGate = null;

    fake.transcriptSegments = [];
    c.send({ type: 'voice_answer', chunk_index: 0 });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'transcription_empty', retryable: true, chunk_index: 0 });

    // Nothing was written by the failures; the same recording then goes through.
    expect((await o.call('GET', `/sessions/${id}`)).body.session.messages.filter((m: any) => m.role === 'participant')).toEqual([]);
    fake.transcriptSegments = [{ start: 0, end: 2, text: 'The export was slow.' }];
    c.send({ type: 'voice_answer', chunk_index: 0 });
    expect(await c.next((f) => f.type === 'message' && f.role === 'participant')).toMatchObject({ text: 'The export was slow.', audio_chunk_index: 0, timestamp_ms: 1000 });
    await c.close();
  }, 60_000);

  it('stops listening after a minute of silence, says so, and lets the participant try again or type', async () => {
    const quiet = path.join(mediaDir, 'silence.wav');
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono', '-t', '5', '-c:a', 'pcm_s16le', quiet]);
    const silent = await launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${quiet}`]);
    try {
      const page = await silent.newPage();
      await page.clock.install();
      await openAndChooseVoice(page);
      await waitFor(page, `root.querySelector('.vb-voice')?.dataset.state === 'listening'`);
      await page.clock.fastForward(61_000);
      await waitFor(page, `root.textContent.includes("I didn't hear anything")`);
      const buttons = (await shadow(page, `[...root.querySelectorAll('button')].filter((b) => !b.hidden).map((b) => b.textContent)`)) as string[];
      expect(buttons).toEqual(expect.arrayContaining(['Try again', 'Type instead']));
    } finally {
      await silent.close();
    }
  }, 120_000);
});
