import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobHelpers } from 'graphile-worker';
import { ConfigError, defaultWorkerConcurrency, loadConfig } from '../core/config.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, postForm } from './helpers/fixtures.ts';
import { form } from './helpers/media.ts';
import { loadTasks } from '../jobs/runner.ts';
import { CONTINUING_PRIORITY } from '../tools/interviews/pipeline.ts';

describe('worker concurrency', () => {
  it('defaults to six jobs per core, at least 4 and at most 16, and WORKER_CONCURRENCY overrides it', () => {
    expect([1, 2, 3, 8].map((cores) => defaultWorkerConcurrency(cores))).toEqual([6, 12, 16, 16]);
    expect(loadConfig({}).workerConcurrency).toBe(defaultWorkerConcurrency());
    expect(loadConfig({ WORKER_CONCURRENCY: '3' }).workerConcurrency).toBe(3);
    for (const bad of ['0', '-1', 'many', '1.5']) expect(() => loadConfig({ WORKER_CONCURRENCY: bad })).toThrow(ConfigError);
  });
});

describe('order of processing steps', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(); // no worker: the test runs the step itself
  });
  afterAll(async () => svc?.stop());

  it('queues an interview first step at the default priority and its next steps ahead of waiting first steps', async () => {
    const o = await ownerWithProject(svc, 'order@example.com');
    const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.from('Interviewer: How was it?\nParticipant: The export button was hidden.'), filename: 't.txt', type: 'text/plain' } }));
    expect(res.status).toBe(201);
    const id = res.body.session.id as string;
    const jobs = async () => (await svc.services.db.pool.query<{ task_identifier: string; priority: number }>(`SELECT task_identifier, priority FROM graphile_worker.jobs WHERE key LIKE $1`, [`interview:${id}:%`])).rows;
    expect(await jobs()).toEqual([{ task_identifier: 'interview_extract', priority: 0 }]);

    // A transcription step that finds the transcript there goes on to extraction, now as work in flight.
    const { taskList } = await loadTasks(svc.services);
    await taskList.interview_transcribe!({ interviewId: id }, { job: { attempts: 1, max_attempts: 5 } } as unknown as JobHelpers);
    expect(await jobs()).toEqual([{ task_identifier: 'interview_extract', priority: CONTINUING_PRIORITY }]);
    expect((await o.call('GET', `/sessions/${id}/processing`)).body).toMatchObject({ status: 'processing', current_step: 'extracting' });
  });
});
