import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';
import { form, video } from './helpers/media.ts';

/**
 * A step whose model answers slowly stays with the live worker that took it: the worker
 * heartbeats under the id graphile-worker locks jobs with, so the dead-worker check (45 s)
 * never hands the job to a second run that would call, and pay for, the model again.
 */
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let ai: FakeOpenAI;
const KEY = 'sk-test-liveness-key-0001';
const HOLD_MS = 130_000;
let answer = () => {};

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  o = await ownerWithProject(svc, 'liveness@example.com');
  ai = await fakeOpenAI(KEY);
  await o.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: ai.url });
});
afterAll(async () => {
  answer();
  await svc?.stop();
  await ai?.close();
});

const transcriptions = () => ai.calls.filter((c) => c.path === '/audio/transcriptions').length;

describe('a step held by a live worker', () => {
  it('runs once even when the model takes over two minutes to answer', { timeout: HOLD_MS + 90_000 }, async () => {
    ai.transcriptionGate = new Promise((resolve) => (answer = resolve));
    const res = await postForm(svc, o.token, `${o.P}/sessions/upload-video`, form({ video: { file: video('slow-model', 2), filename: 'call.mp4', type: 'video/mp4' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.session.id;
    for (let i = 0; i < 600 && transcriptions() === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(transcriptions()).toBe(1);

    // The job is locked by the pool id, and that is the id the worker heartbeats.
    const { rows: locks } = await svc.services.db.pool.query(
      `SELECT j.locked_by, h.seen_at FROM graphile_worker.jobs j LEFT JOIN worker_heartbeats h ON h.worker_id = j.locked_by WHERE j.task_identifier = 'interview_transcribe'`,
    );
    expect(locks).toEqual([{ locked_by: expect.stringMatching(/^pool-/), seen_at: expect.any(Date) }]);

    // Hold the answer well past the presumed-dead threshold; a second start shows as a second call.
    const until = Date.now() + HOLD_MS;
    while (Date.now() < until && transcriptions() === 1) await new Promise((r) => setTimeout(r, 1000));
    expect(transcriptions()).toBe(1);

    answer();
    ai.transcriptionGate = null;
    expect(await settled(o.call, id, 60_000)).toMatchObject({ status: 'processed', error_code: null });
    expect(transcriptions()).toBe(1);
    const transcript = (await o.call('GET', `/sessions/${id}/transcript`)).body;
    expect(transcript.segments.map((s: { text: string }) => s.text)).toEqual(ai.transcriptSegments.map((s) => s.text));
  });
});
