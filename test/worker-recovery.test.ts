import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENCRYPTION_KEY, startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';
import { form, video } from './helpers/media.ts';
import { runCli, type Spawned } from './helpers/process.ts';

/**
 * Worker processes as an operator runs them (`npm run worker`) against one database. A
 * worker killed with SIGKILL mid-step leaves its job locked; another worker notices that
 * the dead one stopped heartbeating and runs the step again.
 */
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let ai: FakeOpenAI;
let env: Record<string, string>;
const workers: Spawned[] = [];
const KEY = 'sk-test-recovery-key-0001';
let answer = () => {};

beforeAll(async () => {
  svc = await startTestService(); // HTTP only: the worker processes below take the jobs
  o = await ownerWithProject(svc, 'recovery@example.com');
  ai = await fakeOpenAI(KEY);
  await o.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: ai.url });
  env = { DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.dataDir, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn', OUTBOUND_ALLOW_LOOPBACK: 'true' };
});
afterAll(async () => {
  answer();
  for (const w of workers) w.child.kill('SIGKILL');
  await svc?.stop();
  await ai?.close();
});

async function worker(): Promise<Spawned> {
  const w = runCli(['worker'], env);
  workers.push(w);
  await w.waitFor(/worker running/);
  return w;
}

const transcriptions = () => ai.calls.filter((c) => c.path === '/audio/transcriptions').length;
const lockedBy = async () => {
  const { rows: rows } = await svc.services.db.pool.query(`SELECT locked_by FROM graphile_worker.jobs WHERE task_identifier = 'interview_transcribe'`);
  return (rows as Array<{ locked_by: string | null }>).map((r) => r.locked_by);
};

describe('a worker killed mid-step', () => {
  it('has its step picked up again by another worker process', { timeout: 150_000 }, async () => {
    ai.transcriptionGate = new Promise((resolve) => (answer = resolve));
    const first = await worker();
    const res = await postForm(svc, o.token, `${o.P}/sessions/upload-video`, form({ video: { file: video('killed-worker', 2), filename: 'call.mp4', type: 'video/mp4' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.session.id;
    for (let i = 0; i < 600 && transcriptions() === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(transcriptions()).toBe(1);
    const [deadPool] = await lockedBy();
    expect(deadPool).toMatch(/^pool-/);

    first.child.kill('SIGKILL');
    expect(await first.exited()).toBeNull();
    expect(await lockedBy()).toEqual([deadPool]);

    // The model answers from now on; the second worker's run is the one that completes.
    answer();
    ai.transcriptionGate = null;
    const second = await worker();
    expect(await settled(o.call, id, 120_000)).toMatchObject({ status: 'processed', error_code: null });
    expect(transcriptions()).toBe(2);
    const transcript = (await o.call('GET', `/sessions/${id}/transcript`)).body;
    expect(transcript.segments.map((s: { text: string }) => s.text)).toEqual(ai.transcriptSegments.map((s) => s.text));

    second.child.kill('SIGINT');
    expect(await second.exited()).toBe(0);
  });
});
