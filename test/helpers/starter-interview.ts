import type { TestService } from './service.ts';
import { openConductor } from './conductor.ts';

/**
 * Runs a text interview of a project's starter study through the SDK and the conductor socket,
 * as the widget does: each question of a talk segment gets the next answer listed for that
 * segment, and "That's all." once they run out; an observe segment is ended at once. `start` is the body of the conductor start
 * call. Returns the interview's id once the conductor has ended it.
 */
export async function starterInterview(svc: TestService, key: string, answers: Record<string, string[]>, start: Record<string, unknown> = {}): Promise<string> {
  const sdk = (path: string, body: unknown) => svc.api('POST', path, { body, headers: { 'x-project-key': key } });
  const created = await sdk('/api/sdk/sessions', { study_id: 'starter-study', interview_mode: 'text' });
  if (created.status !== 201) throw new Error(`session: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.session.id as string;
  await sdk(`/api/sdk/sessions/${id}/consent`, { consent_recording: false, consent_data_use: true, consent_version: 'widget-2026-11' });
  const started = await sdk(`/api/sdk/conductor/${id}/start`, start);
  if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
  const c = await openConductor(started.body.ws_url);
  const left = Object.fromEntries(Object.entries(answers).map(([segment, list]) => [segment, [...list]]));
  for (;;) {
    const f = await c.next((f) => f.type === 'ended' || (f.type === 'state' && f.awaiting !== null));
    if (f.type === 'ended') break;
    if (f.awaiting === 'observe') {
      c.send({ type: 'observe_done' });
      continue;
    }
    // Past the listed answers (a probe, a later question, "anything else?"), the participant has nothing to add.
    c.send({ type: 'answer', text: left[f.segment.id]?.shift() ?? "That's all." });
  }
  await c.close();
  return id;
}
