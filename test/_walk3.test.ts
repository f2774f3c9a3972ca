import fs from 'node:fs';
import { afterAll, beforeAll, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';
import { openConductor } from './helpers/conductor.ts';

// Scratch walkthrough driver (temporary): reads commands from /tmp/walk3/in.jsonl, one turn at a time.
const DIR = '/tmp/walk3';
const SHOP = 'http://shop.example';
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on', CONDUCTOR_GRACE_SECONDS: '1', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  o = await ownerWithProject(svc, 'walk3@example.com', 'Walk');
});
afterAll(() => svc?.stop());

it('walk', async () => {
  const sdk = (method: string, path: string, body?: unknown) =>
    svc.api(method, path, { body, headers: { 'x-project-key': o.project.public_key, origin: SHOP } });
  const sessions: Record<string, { c: Awaited<ReturnType<typeof openConductor>>; printed: number }> = {};
  const out = (s: string, line: string) => fs.appendFileSync(`${DIR}/${s}.txt`, line + '\n');
  const flush = (s: string) => {
    const x = sessions[s];
    for (; x.printed < x.c.frames.length; x.printed++) {
      const f = x.c.frames[x.printed];
      if (f.type === 'message' && f.role === 'conductor') out(s, `C [${f.kind}/${f.segment_id}]: ${f.text}`);
      else if (f.type === 'state') out(s, `   (state awaiting=${f.awaiting} seg=${f.segment?.id ?? '-'})`);
      else if (f.type === 'ended') out(s, '   (ended)');
      else if (f.type === 'error') out(s, `   (ERROR ${f.code}: ${f.error})`);
    }
  };
  let done = 0;
  fs.writeFileSync(`${DIR}/in.jsonl`, '');
  fs.writeFileSync(`${DIR}/done`, '0');
  fs.writeFileSync(`${DIR}/ready`, '1');
  for (;;) {
    const lines = fs.readFileSync(`${DIR}/in.jsonl`, 'utf8').split('\n').filter(Boolean);
    if (done >= lines.length) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const cmd = JSON.parse(lines[done]);
    if (cmd.op === 'quit') break;
    try {
      if (cmd.op === 'new') {
        fs.writeFileSync(`${DIR}/${cmd.s}.txt`, '');
        const created = await sdk('POST', '/api/sdk/sessions', { study_id: 'starter-study', interview_mode: 'text', participant_name: cmd.s, ...(cmd.extra ?? {}) });
        const id = created.body.session.id as string;
        await sdk('POST', `/api/sdk/sessions/${id}/consent`, { consent_recording: !!cmd.recording, consent_data_use: true, consent_version: '2026-11' });
        const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
        const c = await openConductor(start.body.ws_url, { origin: SHOP });
        sessions[cmd.s] = { c, printed: 0 };
        await c.next((f) => f.type === 'state' || f.type === 'error');
      } else {
        const { c } = sessions[cmd.s];
        if (cmd.op === 'say') {
          out(cmd.s, `P: ${cmd.text}`);
          c.send({ type: 'answer', text: cmd.text });
        } else if (cmd.op === 'done') {
          out(cmd.s, 'P: [presses "I\'m done"]');
          c.send({ type: 'observe_done' });
        } else if (cmd.op === 'event') {
          out(cmd.s, `P: [event ${cmd.text}]`);
          c.send({ type: 'event', event_type: 'click', event_line: cmd.text, data: {} });
          c.send({ type: 'ping' });
        }
        await c.next((f) => f.type === 'state' || f.type === 'error' || f.type === 'pong');
        await new Promise((r) => setTimeout(r, 150));
      }
      flush(cmd.s);
    } catch (e) {
      out(cmd.s ?? 'log', `   (DRIVER ERROR ${String(e)})`);
    }
    done++;
    fs.writeFileSync(`${DIR}/done`, String(done));
  }
  for (const x of Object.values(sessions)) await x.c.close();
}, 3_600_000);
