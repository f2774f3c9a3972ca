import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync, readFileSync } from 'node:fs';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';
import { openConductor } from './helpers/conductor.ts';

const SHOP = 'http://shop.example';
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
const sdk = (method: string, path: string, body?: unknown) =>
  svc.api(method, path, { body, headers: { 'x-project-key': o.project.public_key, origin: SHOP } });

async function consentedInterview() {
  const created = await sdk('POST', '/api/sdk/sessions', { study_id: 'starter-study', interview_mode: 'text', participant_name: 'Ada' });
  expect(created.status).toBe(201);
  const id = created.body.session.id as string;
  expect((await sdk('POST', `/api/sdk/sessions/${id}/consent`, { consent_recording: false, consent_data_use: true, consent_version: '2026-11' })).status).toBe(200);
  return id;
}

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on', CONDUCTOR_GRACE_SECONDS: '1', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  o = await ownerWithProject(svc, 'walk4@example.com', 'Bills');
});
afterAll(() => svc?.stop());
beforeEach(() => svc.services.db.pool.query('DELETE FROM rate_limit_hits'));

type Spec = Record<string, string[]>; // segment id -> answers; 'task' answers are notes; '!done' = press the button

async function run(name: string, spec: Spec) {
  const id = await consentedInterview();
  const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
  const c = await openConductor(start.body.ws_url, { origin: SHOP });
  const log: string[] = [];
  const left = Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, [...v]]));
  let printed = 0;
  const flush = () => {
    for (; printed < c.frames.length; printed++) {
      const f = c.frames[printed];
      if (f.type === 'message' && f.role === 'conductor') log.push(`C [${f.segment_id}/${f.kind}]: ${f.text}`);
    }
  };
  for (;;) {
    const f = await c.next((f) => f.type === 'ended' || (f.type === 'state' && f.awaiting !== null));
    await new Promise((r) => setTimeout(r, 150));
    flush();
    if (f.type === 'ended') break;
    const seg = f.segment.id as string;
    const next = left[seg]?.shift() ?? (f.awaiting === 'observe' ? '!done' : "That's all.");
    if (next === '!done') {
      log.push(`   [presses I'm done]`);
      c.send({ type: 'observe_done' });
      continue;
    }
    log.push(`P [${seg}]: ${next}`);
    c.send({ type: 'answer', text: next });
  }
  flush();
  await c.close();
  const text = log.join('\n');
  writeFileSync(`/tmp/walk4/${name}.txt`, text);
  console.log(`===== ${name}\n${text}`);
}

const specs = JSON.parse(readFileSync('/tmp/walk4/specs.json', 'utf8')) as Record<string, Spec>;
describe('walk4', () => {
  for (const [name, spec] of Object.entries(specs)) it(name, async () => { await run(name, spec); }, 60_000);
});
