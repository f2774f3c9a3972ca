import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { validInvitation, visibility } from './fixtures.ts';
import { ffmpeg, form, mediaDir, speech } from './media.ts';
import { openConductor } from './conductor.ts';
import type { TestService } from './service.ts';

/** A study for voice tests: a welcome, two talk segments with the given instructions, thanks. */
export function voiceScript(exportInstruction: string, wishInstruction: string) {
  return {
    version: 2,
    goals: [{ id: 'g1', description: 'Understand exporting' }],
    segments: [
      { id: 'hello', mode: 'speak', title: 'Hello', speak_text: 'Welcome, thanks for joining.' },
      { id: 'export', mode: 'talk', title: 'Exporting', instruction: exportInstruction },
      { id: 'wish', mode: 'talk', title: 'Wishes', instruction: wishInstruction },
      { id: 'bye', mode: 'speak', title: 'Thanks', speak_text: 'Thank you, that was really helpful.' },
    ],
  };
}

/** The voice test study, active on every page of `origin`: its study ref. */
export async function createVoiceStudy(call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>, script: ReturnType<typeof voiceScript>, origin: string): Promise<string> {
  const res = await call('POST', '/studies', {
    title: 'Voice study', status: 'active', goals: script.goals, script, invitation: validInvitation,
    visibility: visibility([['include', 'subtree', '/']]), allowed_origins: [origin],
  });
  expect(res.status).toBe(201);
  return res.body.study.ref as string;
}

/** Speech followed by 3 s of silence, so the widget hears an answer and then a pause; Chromium loops the file. */
export async function microphoneFile(text: string, name: string): Promise<string> {
  const spoken = await speech(text, name);
  const out = path.join(mediaDir, `${name}-mic.wav`);
  // 3 s of silence at espeak's 22,050 Hz (this ffmpeg's apad counts samples).
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', spoken, '-af', 'apad=pad_len=66150', '-ar', '48000', '-ac', '1', '-c:a', 'pcm_s16le', out]);
  return out;
}

/** Chromium flags for a participant whose microphone plays `mic`. */
export const microphoneArgs = (mic: string) => ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${mic}`, '--autoplay-policy=no-user-gesture-required'];

/** A customer's page on its own loopback origin, embedding the widget. */
export async function customerPage(widgetSrc: string, key: string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><head><title>Reports</title></head>
<body><main style="padding:24px"><h1>Reports</h1></main><script src="${widgetSrc}" data-project-key="${key}" async></script></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Evaluates `expr` with `root` bound to the widget's shadow root. */
export const shadow = (page: Page, expr: string) => page.evaluate(`(() => { const root = document.querySelector('#verbatim-widget').shadowRoot; return ${expr}; })()`);

/** Clicks the visible widget button with this text. */
export const click = (page: Page, text: string) => shadow(page, `[...root.querySelectorAll('button')].find((b) => b.textContent === ${JSON.stringify(text)} && !b.hidden).click()`);

/** Waits until `expr` (with `root` bound to the shadow root) is true. */
export const waitFor = async (page: Page, expr: string, timeout = 60_000) => {
  await page.waitForFunction(`(() => { const root = document.querySelector('#verbatim-widget')?.shadowRoot; return root && (${expr}); })()`, undefined, { timeout, polling: 200 });
};

/** Opens the widget on `url`, consents to data use and recording, and picks Talk. */
export async function chooseVoice(page: Page, url: string) {
  await page.goto(url);
  await page.locator('.vb-launcher').click();
  await click(page, validInvitation.panel.cta);
  await shadow(page, `[...root.querySelectorAll('input[type=checkbox]')].forEach((c) => c.click())`);
  await click(page, 'Continue');
  await waitFor(page, `[...root.querySelectorAll('button')].some((b) => b.textContent === 'Talk')`);
  await click(page, 'Talk');
}

/**
 * A voice interview over the SDK, as the widget starts one: consented, started, its conductor
 * socket open and waiting for an answer, and a way to upload a recorded answer.
 */
export async function voiceSession(svc: TestService, key: string, origin: string, studyRef: string) {
  const headers = { 'x-project-key': key, origin };
  const sdk = (method: string, p: string, body?: unknown) => svc.api(method, p, { body, headers });
  const id = (await sdk('POST', '/api/sdk/sessions', { study_id: studyRef, interview_mode: 'voice' })).body.session.id as string;
  await sdk('POST', `/api/sdk/sessions/${id}/consent`, { consent_recording: true, consent_data_use: true, consent_version: 'v1' });
  const started = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
  const conductor = await openConductor(started.body.ws_url, { origin });
  expect((await conductor.next((f) => f.type === 'state')).awaiting).toBe('answer');
  const upload = (index: number, audio: { file: string } | { buffer: Buffer; filename: string }, startedMs = 1000) =>
    fetch(`${svc.url}/api/sdk/audio/upload`, { method: 'POST', headers, body: form({ session_id: id, chunk_index: String(index), started_ms: String(startedMs), audio }) });
  return { id, conductor, upload };
}
