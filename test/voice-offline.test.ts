import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { chooseVoice, createVoiceStudy, customerPage, microphoneArgs, microphoneFile, shadow, voiceScript, voiceSession, waitFor } from './helpers/voice-widget.ts';
import { ownerWithProject, visibility } from './helpers/fixtures.ts';
import { launchBrowser } from './helpers/browser.ts';
import { ffmpeg, mediaDir, speech } from './helpers/media.ts';

/**
 * Voice interviews with no model and no transcription service anywhere: the widget offers
 * voice, and each recorded answer is transcribed by the built-in English model.
 */
const script = voiceScript('Ask: When did you last export a report, and how did it go?', 'Ask: What would make exporting easier for you?');

let svc: TestService;
let browser: Browser;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let site: Awaited<ReturnType<typeof customerPage>>;
let studyRef: string;

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  o = await ownerWithProject(svc, 'voice-offline@example.com', 'Offline voice');
  site = await customerPage(`${svc.url}/sdk/widget.js`, o.project.public_key);
  studyRef = await createVoiceStudy(o.call, script, site.origin);
  browser = await launchBrowser(microphoneArgs(await microphoneFile('I exported the monthly report on Monday and it took ages.', 'offline-voice-answer')));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await svc?.stop();
});

describe('voice interviews with no transcription service', () => {
  it('offers voice through built-in transcription, and not for a project interviewed in another language', async () => {
    const study = (await o.call('GET', '/widget-setup')).body.studies.find((s: any) => s.study_ref === studyRef);
    expect(study.voice).toEqual({ available: true, path: 'transcription', reason: null });

    // A study shown only on German pages gets no built-in English transcription; one also shown on English pages does.
    for (const [languages, available] of [[['de'], false], [['de', 'en-GB'], true]] as const) {
      const created = await o.call('POST', '/studies', { title: `Pages in ${languages.join(' and ')}`, goals: script.goals, script, visibility: { ...visibility([['include', 'subtree', '/']]), languages } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const voice = (await o.call('GET', '/widget-setup')).body.studies.find((s: any) => s.study_ref === created.body.study.ref).voice;
      expect(voice).toMatchObject(available ? { available: true, path: 'transcription' } : { available: false, reason: expect.stringMatching(/English only.*shown in de/) });
    }

    // A new project's starter study, in a project whose interviews are in German.
    const german = await ownerWithProject(svc, 'voice-de@example.com', 'Deutsch');
    expect((await german.call('GET', '/widget-setup')).body.studies[0].voice).toEqual({ available: true, path: 'transcription', reason: null });
    expect((await german.call('PATCH', '/settings', { interview_language: 'de' })).status).toBe(200);
    expect((await german.call('GET', '/widget-setup')).body.studies[0].voice).toMatchObject({ available: false, path: null, reason: expect.stringMatching(/English only.*de/) });
  });

  it('transcribes a recorded answer on this machine into the participant\'s message, and says when no words were heard', async () => {
    const session = await voiceSession(svc, o.project.public_key, site.origin, studyRef);
    const c = session.conductor;
    const upload = (index: number, file: string) => session.upload(index, { file }, 100);

    const quiet = path.join(mediaDir, 'offline-quiet.wav');
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono', '-t', '3', '-c:a', 'pcm_s16le', quiet]);
    expect((await upload(0, quiet)).status).toBe(201);
    c.send({ type: 'voice_answer', chunk_index: 0 });
    expect(await c.next((f) => f.type === 'error', 15_000)).toMatchObject({ code: 'transcription_empty', retryable: true, chunk_index: 0 });

    // An answer in another language is not guessed at.
    expect((await upload(2, await speech('La exportación fue muy lenta y tuve que hacerla dos veces.', 'offline-spanish', 'wav', 'es'))).status).toBe(201);
    c.send({ type: 'voice_answer', chunk_index: 2 });
    expect(await c.next((f) => f.type === 'error', 15_000)).toMatchObject({ code: 'transcription_unclear', retryable: true, chunk_index: 2 });

    expect((await upload(1, await speech('The export was slow, and I had to do it twice.', 'offline-short'))).status).toBe(201);
    c.send({ type: 'voice_answer', chunk_index: 1 });
    const said = await c.next((f) => f.type === 'message' && f.role === 'participant', 15_000);
    expect(said).toMatchObject({ audio_chunk_index: 1 });
    expect(said.text).toMatch(/the export was/i);
    expect(said.text).toMatch(/twice/i);
    await c.close();
  }, 60_000);

  it('runs in the widget: the spoken answer becomes the first message', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await chooseVoice(page, `${site.origin}/reports`);
    await waitFor(page, `root.querySelectorAll('.vb-msg-participant').length >= 1`, 90_000);
    const first = (await shadow(page, `root.querySelector('.vb-msg-participant').textContent`)) as string;
    expect(first).toMatch(/monthly report/i);
    await page.close();
  }, 120_000);
});
