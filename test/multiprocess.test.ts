import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './setup/global.ts';
import { runCli, runCliToEnd, type Spawned } from './helpers/process.ts';
import { refusedStart } from './helpers/refused.ts';
import { TEST_ENCRYPTION_KEY, cloneDatabase } from './helpers/service.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';
import { form, video } from './helpers/media.ts';
import { MARKER_FILE } from '../core/storage/marker.ts';

/**
 * Several processes on one database, started with the command line as a user does: two API
 * processes without workers and a worker alone, sharing DATABASE_URL, DATA_DIR and the key.
 */
const KEY = 'sk-test-multiprocess-0001';
const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-multi-'));
const others: string[] = [];
let env: Record<string, string>;
let ai: FakeOpenAI;
const running: Spawned[] = [];
let a: string;
let b: string;
let worker: Spawned;
let token: string;
let P: string;

async function stop(p: Spawned) {
  if (p.child.exitCode === null) p.child.kill('SIGINT');
  expect(await p.exited()).toBe(0);
}

async function api(base: string, method: string, url: string, body?: unknown) {
  const res = await fetch(base + url, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function apiProcess(): Promise<string> {
  const port = await freePort();
  const p = runCli(['start'], { ...env, PORT: String(port), WORKER: 'off' });
  running.push(p);
  await p.waitFor(/Verbatim is running/);
  expect(p.stdout()).not.toMatch(/with its worker/);
  return `http://127.0.0.1:${port}`;
}

async function startWorker(): Promise<Spawned> {
  const p = runCli(['worker'], env);
  running.push(p);
  await p.waitFor(/worker running against DATABASE_URL/);
  return p;
}

async function settledThrough(base: string, id: string) {
  for (let i = 0; i < 600; i++) {
    const res = await api(base, 'GET', `${P}/sessions/${id}/processing`);
    if (res.body.status === 'processed' || res.body.status === 'failed') return res.body;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error('processing did not settle');
}

async function uploadThrough(base: string, name: string) {
  const res = await fetch(`${base}${P}/sessions/upload-video`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form({ video: { file: video(name, 2), filename: `${name}.mp4`, type: 'video/mp4' } }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as any).session.id as string;
}

beforeAll(async () => {
  fs.chmodSync(shared, 0o755);
  env = { DATABASE_URL: await cloneDatabase(), DATA_DIR: shared, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn', OUTBOUND_ALLOW_LOOPBACK: 'true' };
  ai = await fakeOpenAI(KEY);
  a = await apiProcess();
  [b, worker] = await Promise.all([apiProcess(), startWorker()]);
  const login = await runCliToEnd(['login', '--email', 'multi@example.com'], env);
  expect(login.code, login.stderr).toBe(0);
  const user = JSON.parse(login.stdout);
  token = user.token;
  expect((await api(a, 'POST', `/api/orgs/${user.org_handle}/projects`, { name: 'Multi' })).status).toBe(201);
  P = `/api/orgs/${user.org_handle}/projects/multi`;
}, 120_000);

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await ai?.close();
  for (const d of [shared, ...others]) fs.rmSync(d, { recursive: true, force: true });
});

describe('two API processes and a worker on one database', () => {
  it('processes an upload made through one API process in the worker, with the project key, and serves it through the other', { timeout: 120_000 }, async () => {
    // The key is sealed by process A; the worker must open it to use the project's model.
    expect((await api(a, 'PATCH', `${P}/settings`, { openai_api_key: KEY, openai_base_url: ai.url })).status).toBe(200);
    ai.evidence = () => [
      { signal_type: 'struggling_moment', target_surface: 'product_under_test', quote: "I couldn't find the export button anywhere.", segment_id: null, headline: 'Export is hidden', claim: 'The export button is hard to find', reconstruction: 'Looking for export', observed_facts: ['Could not find export'], evidence_grade: 'direct', confidence: 0.9 },
    ];
    const id = await uploadThrough(a, 'multi-1');

    const done = await settledThrough(b, id);
    expect(done).toMatchObject({ status: 'processed', error_code: null, warnings: [] });
    expect(ai.calls.filter((c) => c.path === '/audio/transcriptions').map((c) => c.auth)).toEqual([`Bearer ${KEY}`]);
    expect(ai.calls.some((c) => c.path === '/chat/completions')).toBe(true);

    const transcript = (await api(b, 'GET', `${P}/sessions/${id}/transcript`)).body;
    expect(transcript.segments.map((s: any) => s.text)).toEqual(ai.transcriptSegments.map((s) => s.text));
    const signals = (await api(b, 'GET', `${P}/signals?session_id=${id}`)).body.signals;
    expect(signals.map((s: any) => [s.source, s.quote])).toEqual([['pipeline:llm', "I couldn't find the export button anywhere."]]);

    // Media the worker derived is served by the other API process.
    const frame = (await api(b, 'GET', `${P}/sessions/${id}/artifact/frame-1`)).body;
    expect(frame.url.startsWith(b)).toBe(true);
    const img = await fetch(frame.url);
    expect(img.status).toBe(200);
    expect(Buffer.from(await img.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it('refuses a process whose ENCRYPTION_KEY differs, saying how to fix it', async () => {
    const stderr = await refusedStart({ ...env, ENCRYPTION_KEY: 'c'.repeat(64) });
    expect(stderr).toMatch(/ENCRYPTION_KEY is not the encryption key of this database/);
    expect(stderr).toMatch(/Give every process on this database the same ENCRYPTION_KEY/);
    expect(stderr).toMatch(/ENCRYPTION_KEYS_PREVIOUS/);
    // A worker without any key (and no key file in its own DATA_DIR) is refused too, and writes no key.
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-multi-other-'));
    others.push(own);
    const keyless = await runCliToEnd(['worker'], { ...env, DATA_DIR: own, ENCRYPTION_KEY: '' });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toMatch(/ENCRYPTION_KEY is not set .* already holds secrets sealed by another process's key/);
    expect(fs.existsSync(path.join(own, 'encryption.key'))).toBe(false);
  });

  it('refuses a local-storage process whose DATA_DIR is not the shared one', async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-multi-other-'));
    others.push(own);
    const stderr = await refusedStart({ ...env, DATA_DIR: own });
    expect(stderr).toMatch(/STORAGE=local: .* is not the storage folder the other processes on this database use/);
    expect(stderr).toMatch(/same DATA_DIR .* or set STORAGE=s3/);
    expect(stderr).toContain(`${own}/storage/${MARKER_FILE}`);
  });

  it('fails processing and reads of a stored file that is gone with media_missing', { timeout: 90_000 }, async () => {
    await stop(worker);
    const id = await uploadThrough(a, 'multi-2');
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query(`SELECT storage_key FROM interview_artifacts WHERE interview_id = $1 AND name = 'source-video'`, [id]);
    await db.end();
    const file = path.join(shared, 'storage', 'objects', rows[0].storage_key);
    expect(fs.existsSync(file)).toBe(true);
    fs.rmSync(file);

    const read = await api(b, 'GET', `${P}/sessions/${id}/artifact/source-video`);
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ code: 'media_missing', retryable: false, action: expect.stringMatching(/STORAGE=s3/) });

    worker = await startWorker();
    const failed = await settledThrough(b, id);
    expect(failed).toMatchObject({ status: 'failed', current_step: 'deriving_media', error_code: 'media_missing', retryable: false, action: expect.stringMatching(/same DATA_DIR/) });
    expect(failed.error_message).toMatch(/source-video of this interview is missing from storage/);
    await stop(worker);
    for (const p of running) if (p.child.exitCode === null) await stop(p);
  });
});
