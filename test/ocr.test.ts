import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runOnce } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';
import { ffmpeg, form, mediaDir } from './helpers/media.ts';
import { launchBrowser } from './helpers/browser.ts';
import { loadTasks } from '../jobs/runner.ts';
import { recordScreens as recordScreensSaying } from './helpers/app-screens.ts';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let ai: FakeOpenAI;
const KEY = 'sk-test-ocr-key-0001';

/** Two pages of a product, five seconds each, as a screen recording with a sound track. */
const PAGES = [
  ['Checkout', 'Shipping address', 'Continue to payment'],
  ['Invoice settings', 'Quarterly zebra report', 'Export as spreadsheet'],
];
let screenRecording: string;

/** Screenshots of HTML pages from headless Chromium, one per second, made into an mp4 by ffmpeg. */
async function recordScreens(name: string, pages: string[][], secondsEach: number, sound = true, encoding: string[] = []): Promise<string> {
  const dir = fs.mkdtempSync(path.join(mediaDir, `${name}-`));
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    let n = 1;
    for (const [title, ...lines] of pages) {
      await page.setContent(`<body style="font-family:sans-serif;margin:60px"><h1 style="font-size:64px">${title}</h1>${lines.map((l) => `<p style="font-size:40px">${l}</p>`).join('')}</body>`);
      const png = await page.screenshot();
      for (let i = 0; i < secondsEach; i++) fs.writeFileSync(path.join(dir, `shot-${n++}.png`), png);
    }
  } finally {
    await browser.close();
  }
  const out = path.join(mediaDir, `${name}.mp4`);
  const seconds = pages.length * secondsEach;
  const tone = sound ? ['-f', 'lavfi', '-i', `sine=frequency=300:duration=${seconds}`, '-shortest'] : [];
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-framerate', '1', '-i', path.join(dir, 'shot-%d.png'), ...tone, '-r', '5', '-pix_fmt', 'yuv420p', ...encoding, out]);
  return out;
}

/** A video from one of ffmpeg's sources (no text in it), with a tone. */
function lavfiVideo(name: string, source: string, seconds = 4): string {
  const out = path.join(mediaDir, `${name}.mp4`);
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-t', String(seconds), '-i', source, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-pix_fmt', 'yuv420p', '-shortest', out]);
  return out;
}

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  o = await ownerWithProject(svc, 'ocr@example.com');
  ai = await fakeOpenAI(KEY);
  ai.transcriptSegments = [
    { start: 0, end: 3, text: 'So I am filling in my address now.' },
    { start: 6, end: 9, text: 'I cannot tell where this report goes.' },
  ];
  await o.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: ai.url });
  screenRecording = await recordScreens('screens', PAGES, 5);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await ai?.close();
});

const upload = (file: string, type: string) => postForm(svc, o.token, `${o.P}/sessions/upload-video`, form({ media: { file, filename: path.basename(file), type } }));

/** Polls processing until it settles, noting every step it was seen in. */
async function followed(id: string) {
  const steps = new Set<string>();
  const until = Date.now() + 90_000;
  for (;;) {
    const { body } = await o.call('GET', `/sessions/${id}/processing`);
    if (body.current_step) steps.add(body.current_step);
    if (body.status === 'processed' || body.status === 'failed') return { status: body, steps: [...steps] };
    if (Date.now() > until) throw new Error(`processing did not settle: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const artifactsOf = async (id: string) => (await o.call('GET', `/sessions/${id}/artifacts`)).body.artifacts as Array<{ name: string; kind: string; meta: any; download_url: string }>;

describe('reading the screen of a recording (OCR)', () => {
  it('reads the text on screen at each scene change, stores it with its timestamp, and gives evidence from that moment its page context', async () => {
    ai.evidence = () => [
      { signal_type: 'struggling_moment', target_surface: 'product_under_test', quote: 'I cannot tell where this report goes.', segment_id: null, headline: 'Lost report', claim: 'The report destination is unclear', reconstruction: 'On the invoices page', observed_facts: ['Paused'], evidence_grade: 'direct', confidence: 0.8 },
      { signal_type: 'workaround', target_surface: 'product_under_test', quote: 'So I am filling in my address now.', segment_id: null, headline: 'Address entry', claim: 'Enters an address', reconstruction: 'At checkout', observed_facts: ['Typing'], evidence_grade: 'direct', confidence: 0.6 },
    ];
    const res = await upload(screenRecording, 'video/mp4');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // A video sent as `media` is a video interview, as it is through a resumable upload.
    expect(res.body.session.interview_mode).toBe('video');
    const id = res.body.session.id;
    const { status, steps } = await followed(id);
    expect(status).toMatchObject({ status: 'processed', warnings: [] });
    expect(steps).toContain('reading_screen');
    // After the media step (the order reading_screen → transcribing is pinned by the last test, which runs one step at a time).
    expect(steps.slice(steps.indexOf('reading_screen'))).not.toContain('deriving_media');

    const artifacts = await artifactsOf(id);
    const frames = artifacts.filter((a) => a.kind === 'frame');
    // The first frame and the page change, not a frame every few seconds.
    expect(frames.map((f) => f.meta.timestamp_ms)).toEqual([0, expect.any(Number)]);
    expect(Math.abs(frames[1].meta.timestamp_ms - 5000)).toBeLessThanOrEqual(400);
    // Each frame says until when its screen showed: the next screen, or the end.
    expect(frames.map((f) => f.meta.until_ms)).toEqual([frames[1].meta.timestamp_ms, 10_000]);
    const texts = artifacts.filter((a) => a.kind === 'screen_text');
    expect(texts).toHaveLength(2);
    expect(texts.map((t) => t.meta.frame).sort()).toEqual(frames.map((f) => f.name).sort());
    const [first, second] = texts.sort((a, b) => a.meta.timestamp_ms - b.meta.timestamp_ms);
    expect(first.meta.timestamp_ms).toBe(0);
    expect(first.meta.text).toMatch(/checkout/i);
    expect(first.meta.text).toMatch(/shipping/i);
    expect(second.meta.timestamp_ms).toBe(frames[1].meta.timestamp_ms);
    expect(second.meta.text).toMatch(/invoice/i);
    expect(second.meta.text).toMatch(/zebra/i);
    expect(second.meta.text).not.toMatch(/checkout/i);
    expect(second.meta.prominent_line).toMatch(/invoice settings/i);
    const download = await fetch(second.download_url);
    expect(await download.text()).toMatch(/spreadsheet/i);

    // Evidence from each moment carries the screen shown then.
    const signals = (await o.call('GET', `/signals?session_id=${id}`)).body.signals;
    const lost = signals.find((s: any) => s.signal_type === 'struggling_moment');
    expect(lost.timestamp_ms).toBe(6000);
    expect(lost.page_title).toMatch(/invoice settings/i);
    const facts = JSON.parse(lost.observed_facts_json) as string[];
    expect(facts[0]).toBe('Paused');
    expect(facts[1]).toMatch(/^On screen: .*zebra/i);
    const address = signals.find((s: any) => s.signal_type === 'workaround');
    expect(address.page_title).toMatch(/checkout/i);
    expect(address.observed_facts_json).not.toMatch(/zebra/i);
    const card = (await o.call('GET', `/signals/${lost.id}`)).body.signal;
    expect(card.case_file.evidence_card.evidence.observed_facts[1]).toMatch(/zebra/i);

    // Search finds a word that was only ever on screen, on the card of that moment only.
    const found = (await o.call('GET', `/signals?session_id=${id}&search=zebra`)).body.signals;
    expect(found.map((s: any) => s.id)).toEqual([lost.id]);
    const shipping = (await o.call('GET', `/signals?session_id=${id}&search=shipping`)).body.signals;
    expect(shipping.map((s: any) => s.id)).toEqual([address.id]);
  }, 120_000);

  it('with no model anywhere, hears what was said on this machine and gives the evidence from each moment the screen shown then', async () => {
    const offline = await ownerWithProject(svc, 'ocr-offline@example.com', 'Offline');
    const browser = await launchBrowser();
    const shots: Buffer[] = [];
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      for (const [title, ...lines] of PAGES) {
        await page.setContent(`<body style="font-family:sans-serif;margin:60px"><h1 style="font-size:64px">${title}</h1>${lines.map((l) => `<p style="font-size:40px">${l}</p>`).join('')}</body>`);
        shots.push(await page.screenshot());
      }
    } finally {
      await browser.close();
    }
    const said = ['I am typing my shipping address now.', "I can't find where this report goes. It is really confusing."];
    const recording = await recordScreensSaying(ffmpeg, fs.mkdtempSync(path.join(mediaDir, 'spoken-')), 'spoken', shots, said, 6);
    const res = await postForm(svc, offline.token, `${offline.P}/sessions/upload-video`, form({ media: { file: recording.file, filename: 'spoken.mp4', type: 'video/mp4' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.session.id;
    const status = await settled(offline.call, id);
    expect(status).toMatchObject({ status: 'processed', warnings: [], error_code: null });

    const texts = ((await offline.call('GET', `/sessions/${id}/artifacts`)).body.artifacts as Array<{ kind: string; meta: any }>).filter((a) => a.kind === 'screen_text');
    expect(texts.map((t) => t.meta.prominent_line)).toEqual([expect.stringMatching(/checkout/i), expect.stringMatching(/invoice settings/i)]);
    const segments = (await offline.call('GET', `/sessions/${id}/transcript`)).body.segments as Array<{ start_ms: number; text: string }>;
    const report = segments.find((s) => /report/i.test(s.text));
    expect(report?.text).toMatch(/find where this report goes/i);
    // Heard when it was said: a second after the second screen appeared (the speech chunk starts a little before).
    expect(Math.abs(report!.start_ms - 7000)).toBeLessThanOrEqual(500);

    const signals = (await offline.call('GET', `/signals?session_id=${id}`)).body.signals;
    const lost = signals.find((s: any) => /report/i.test(s.quote));
    expect(lost, JSON.stringify(signals)).toBeDefined();
    expect(lost.page_title).toMatch(/invoice settings/i);
    const found = (await offline.call('GET', `/signals?session_id=${id}&search=zebra`)).body.signals;
    expect(found.map((s: any) => s.id)).toContain(lost.id);
  }, 120_000);

  it('reads the page a brief loading screen leads to, once it has drawn, in steady and in browser-style (changes only) recordings', async () => {
    ai.evidence = () => [];
    const dir = fs.mkdtempSync(path.join(mediaDir, 'loading-'));
    const browser = await launchBrowser();
    const shown: Array<[string, number]> = [['Checkout', 3], ['Loading', 0.4], ['Payment declined', 4]];
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      for (const [i, [title]] of shown.entries()) {
        await page.setContent(`<body style="font-family:sans-serif;margin:60px"><h1 style="font-size:64px">${title}</h1></body>`);
        fs.writeFileSync(path.join(dir, `page-${i}.png`), await page.screenshot());
      }
    } finally {
      await browser.close();
    }
    fs.writeFileSync(path.join(dir, 'pages.txt'), shown.map(([, s], i) => `file 'page-${i}.png'\nduration ${s}\n`).join('') + `file 'page-${shown.length - 1}.png'\n`);
    for (const [name, rate] of [['steady', ['-r', '25']], ['changes-only', ['-vsync', 'vfr']]] as const) {
      const out = path.join(mediaDir, `loading-${name}.mp4`);
      execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', path.join(dir, 'pages.txt'), '-f', 'lavfi', '-i', 'sine=frequency=300:duration=7.4', ...rate, '-pix_fmt', 'yuv420p', '-shortest', out]);
      const res = await upload(out, 'video/mp4');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const { status } = await followed(res.body.session.id);
      expect(status, name).toMatchObject({ status: 'processed', warnings: [] });
      const texts = (await artifactsOf(res.body.session.id)).filter((a) => a.kind === 'screen_text').sort((a, b) => a.meta.timestamp_ms - b.meta.timestamp_ms);
      expect(texts.map((t) => t.meta.prominent_line), name).toEqual([expect.stringMatching(/checkout/i), expect.stringMatching(/payment declined/i)]);
      // Dated when the page appeared, after the loading screen.
      expect(Math.abs(texts[1].meta.timestamp_ms - 3400), name).toBeLessThanOrEqual(200);
      // The checkout showed until the next page, the brief loading screen on the way included (walkthrough 48).
      expect(texts[0].meta.until_ms, name).toBe(texts[1].meta.timestamp_ms);
    }
  }, 120_000);

  it('gives a moment no screen when the screen then was one of more than a minute\'s frames, rather than one shown earlier (walkthrough 42)', async () => {
    // Twelve records, four seconds each: more screens in the first minute than are read.
    const names = ['Kestrel', 'Jackdaw', 'Heron', 'Osprey', 'Plover', 'Curlew', 'Dunlin', 'Merlin', 'Puffin', 'Gannet', 'Siskin', 'Linnet'];
    const records = names.map((name, k) => [`Record ${k + 1}: ${name} Holdings`, `Account owner ${name}`]);
    const recording = await recordScreens('records', records, 4);
    ai.transcriptSegments = records.map((_, k) => ({ start: k * 4 + 2, end: k * 4 + 3, text: `Remark number ${k + 1} on this record.` }));
    ai.evidence = () => records.map((_, k) => ({ signal_type: 'struggling_moment', target_surface: 'product_under_test', quote: `Remark number ${k + 1} on this record.`, segment_id: null, headline: `Remark ${k + 1}`, claim: 'A remark', reconstruction: 'On a record', observed_facts: ['Said'], evidence_grade: 'direct', confidence: 0.8 }));
    const id = (await upload(recording, 'video/mp4')).body.session.id;
    expect((await followed(id)).status).toMatchObject({ status: 'processed', warnings: [] });
    const artifacts = await artifactsOf(id);
    const frames = artifacts.filter((a) => a.kind === 'frame');
    expect(frames.length).toBeLessThan(12);
    // Listed in order: frame-2 before frame-10.
    expect(frames.map((f) => f.name)).toEqual(frames.map((_, i) => `frame-${i + 1}`));
    const signals = (await o.call('GET', `/signals?session_id=${id}&limit=100`)).body.signals as Array<{ quote: string; page_title: string | null }>;
    expect(signals).toHaveLength(12);
    for (const s of signals) {
      const k = Number(/Remark number (\d+)/.exec(s.quote)![1]);
      // The record on screen, or none; never another record.
      if (s.page_title) expect(s.page_title, s.quote).toMatch(new RegExp(names[k - 1]));
    }
    expect(signals.filter((s) => !s.page_title).length).toBeGreaterThan(0);
    ai.transcriptSegments = [
      { start: 0, end: 3, text: 'So I am filling in my address now.' },
      { start: 6, end: 9, text: 'I cannot tell where this report goes.' },
    ];
  }, 180_000);

  it('keeps one frame of a screen that changed only in its pixels, not its text (a keyframe refresh)', async () => {
    ai.evidence = () => [];
    // A keyframe every 2 s at a low quality: the refresh scores as a change of screen, as a walkthrough's recording did every 10 s.
    const refreshed = await recordScreens('refreshed', PAGES, 12, true, ['-g', '10', '-crf', '45']);
    const id = (await upload(refreshed, 'video/mp4')).body.session.id;
    expect((await followed(id)).status).toMatchObject({ status: 'processed', warnings: [] });
    const artifacts = await artifactsOf(id);
    const texts = artifacts.filter((a) => a.kind === 'screen_text').sort((a, b) => a.meta.timestamp_ms - b.meta.timestamp_ms);
    expect(texts.map((t) => t.meta.timestamp_ms)).toEqual([0, expect.any(Number)]);
    expect(texts[1].meta.text).toMatch(/zebra/i);
    // The repeat's frame goes too, so "On screen" shows each screen once.
    expect(artifacts.filter((a) => a.kind === 'frame').map((f) => f.name).sort()).toEqual(texts.map((t) => t.meta.frame).sort());
    // The screen kept shows until the next screen, through its repeats, in its frame as in its text (walkthrough 48).
    expect(texts[0].meta.until_ms).toBe(texts[1].meta.timestamp_ms);
    const frameOf = (t: { meta: any }) => artifacts.find((a) => a.name === t.meta.frame)!;
    expect(texts.map((t) => frameOf(t).meta.until_ms)).toEqual(texts.map((t) => t.meta.until_ms));
  }, 120_000);

  it('reads nothing from black or noisy frames, invents no text, and does not fail', async () => {
    ai.evidence = () => [];
    for (const [name, source] of [
      ['black', 'color=black:size=640x360:rate=5'],
      ['noise', 'nullsrc=size=640x360:rate=5,geq=random(1)*255:128:128'],
    ]) {
      const res = await upload(lavfiVideo(name, source), 'video/mp4');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.session.id;
      const { status, steps } = await followed(id);
      expect(status, name).toMatchObject({ status: 'processed', warnings: [] });
      expect(steps, name).toContain('reading_screen');
      const artifacts = await artifactsOf(id);
      expect(artifacts.filter((a) => a.kind === 'frame').length, name).toBeGreaterThanOrEqual(1);
      expect(artifacts.filter((a) => a.kind === 'screen_text'), name).toEqual([]);
    }
  }, 120_000);

  it('reads the screen of a silent recording, says there was no sound to transcribe rather than failing, and gives a researcher\'s card for a moment of it the screen shown then', async () => {
    const silent = await recordScreens('silent', [PAGES[1]], 3, false);
    const res = await upload(silent, 'video/mp4');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.session.id;
    const { status, steps } = await followed(id);
    expect(status).toMatchObject({ status: 'processed', error_code: null, warnings: [{ step: 'deriving_media', code: 'no_audio_track', message: expect.stringContaining('no sound'), action: expect.any(String) }] });
    expect(steps).toContain('reading_screen');
    const artifacts = await artifactsOf(id);
    expect(artifacts.map((a) => a.kind)).not.toContain('derived_audio');
    expect(artifacts.find((a) => a.kind === 'screen_text')?.meta.text).toMatch(/zebra/i);
    expect((await o.call('GET', `/sessions/${id}/transcript`)).body.segments).toEqual([]);

    // A researcher's own card for a moment of it gets the screen shown then, and search finds it.
    const manual = await o.call('POST', `/sessions/${id}/signals`, { signal_type: 'struggling_moment', quote: 'Hovered over the zebra report for a long time', timestamp_ms: 2000 });
    expect(manual.status, JSON.stringify(manual.body)).toBe(201);
    expect(manual.body.signal).toMatchObject({ timestamp_ms: 2000, page_title: expect.stringMatching(/invoice settings/i), transcript_uncertain: true });
    expect(JSON.parse(manual.body.signal.observed_facts_json)[1]).toMatch(/^On screen: .*spreadsheet/i);
    const found = (await o.call('GET', `/signals?session_id=${id}&search=spreadsheet`)).body.signals;
    expect(found.map((s: any) => s.id)).toEqual([manual.body.signal.id]);
    expect((await o.call('POST', `/sessions/${id}/signals`, { signal_type: 'struggling_moment', quote: 'x', timestamp_ms: -5 })).status).toBe(400);
  }, 120_000);

  it('takes a WebM that holds only sound for a voice interview once it is read', async () => {
    const webm = path.join(mediaDir, 'voice-only.webm');
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-c:a', 'libopus', webm]);
    const res = await upload(webm, 'audio/webm');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await followed(res.body.session.id);
    expect((await o.call('GET', `/sessions/${res.body.session.id}`)).body.session.interview_mode).toBe('voice');
  });

  it('skips reading the screen of a recording without video, without a warning', async () => {
    const wav = path.join(mediaDir, 'tone.wav');
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', wav]);
    const res = await upload(wav, 'audio/wav');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.session.interview_mode).toBe('voice');
    const { status, steps } = await followed(res.body.session.id);
    expect(status).toMatchObject({ status: 'processed', warnings: [] });
    expect(steps).not.toContain('reading_screen');
    const kinds = (await artifactsOf(res.body.session.id)).map((a) => a.kind);
    expect(kinds).not.toContain('frame');
    expect(kinds).not.toContain('screen_text');
  });
});

describe('a screen that cannot be read', () => {
  let quiet: TestService;
  let q: Awaited<ReturnType<typeof ownerWithProject>>;
  beforeAll(async () => {
    quiet = await startTestService({ env: { WORKER: 'off', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
    q = await ownerWithProject(quiet, 'ocr-quiet@example.com');
    await q.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: ai.url });
  });
  afterAll(async () => {
    await quiet?.stop();
  });

  it('is a warning on the processing status, and the interview goes on to be processed', async () => {
    ai.evidence = () => [];
    const res = await postForm(quiet, q.token, `${q.P}/sessions/upload-video`, form({ media: { file: screenRecording, filename: 'screen.mp4', type: 'video/mp4' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.session.id;
    // The queue's own worker runs one step at a time, so a stored frame can be damaged between them.
    const { taskList } = await loadTasks(quiet.services);
    const step = (name: string) => runOnce({ connectionString: quiet.databaseUrl, taskList: { [name]: taskList[name] } });
    await step('interview_derive_media');
    expect((await q.call('GET', `/sessions/${id}/processing`)).body.current_step).toBe('reading_screen');
    const { rows: [frame] } = await quiet.services.db.pool.query(`SELECT storage_key FROM interview_artifacts WHERE interview_id = $1 AND name = 'frame-2'`, [id]);
    await quiet.services.storage.put(frame.storage_key, Buffer.from('these bytes are no picture at all'), 'image/jpeg');

    await step('interview_read_screen');
    const after = (await q.call('GET', `/sessions/${id}/processing`)).body;
    expect(after).toMatchObject({ status: 'processing', current_step: 'transcribing', error_code: null });
    expect(after.warnings).toEqual([{ step: 'reading_screen', code: 'screen_text_unread', message: expect.stringContaining('frame-2'), action: expect.any(String) }]);
    // The readable frame was still read.
    const names = (await q.call('GET', `/sessions/${id}/artifacts`)).body.artifacts.filter((a: any) => a.kind === 'screen_text').map((a: any) => a.meta.frame);
    expect(names).toEqual(['frame-1']);

    await runOnce({ connectionString: quiet.databaseUrl, taskList });
    const done = (await q.call('GET', `/sessions/${id}/processing`)).body;
    expect(done).toMatchObject({ status: 'processed', warnings: [{ step: 'reading_screen', code: 'screen_text_unread' }] });
  }, 60_000);
});
