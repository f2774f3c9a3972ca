import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, settled, validInvitation, visibility } from './helpers/fixtures.ts';
import { openConductor } from './helpers/conductor.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';
import { conductorScript, directedText } from './helpers/participant-text.ts';
import { starterScript } from '../tools/studies/starter.ts';
import { ACKNOWLEDGEMENT, ALREADY_SAID, ANONYMITY, ANONYMITY_NAMED, AS_YOU_WOULD, GAVE_UP, NOTED_LAST, NOT_RECORDED, ON_YOUR_OWN, SKIPPED, STOPPING, UP_TO_YOU, WHO_WE_ARE, YOUR_CALL } from '../tools/conductor/heard.ts';

const SHOP = 'http://shop.example';
const script = conductorScript;

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let studyRef: string;
const sdk = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  svc.api(method, path, { body, headers: { 'x-project-key': o.project.public_key, origin: SHOP, ...headers } });

async function consentedInterview(extra: Record<string, unknown> = {}, study = studyRef) {
  const created = await sdk('POST', '/api/sdk/sessions', { study_id: study, interview_mode: 'text', participant_name: 'Ada', ...extra });
  expect(created.status).toBe(201);
  const id = created.body.session.id as string;
  expect((await sdk('POST', `/api/sdk/sessions/${id}/consent`, { consent_recording: false, consent_data_use: true, consent_version: '2026-11' })).status).toBe(200);
  return id;
}

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on', CONDUCTOR_GRACE_SECONDS: '1', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  o = await ownerWithProject(svc, 'conductor@example.com', 'Exports');
  const res = await o.call('POST', '/studies', {
    title: 'Export study', status: 'active', goals: script.goals, script, invitation: validInvitation,
    visibility: visibility([['include', 'subtree', '/app']]), allowed_origins: [SHOP],
  });
  expect(res.status).toBe(201);
  studyRef = res.body.study.ref;
});
afterAll(() => svc?.stop());
// Every test here calls from one IP; each starts with fresh SPEC 8 buckets (one test checks them).
beforeEach(() => svc.services.db.pool.query('DELETE FROM rate_limit_hits'));

describe('conductor', () => {
  it('runs speak, observe and talk over the WebSocket, storing every message and event, then ends and processes', async () => {
    const id = await consentedInterview();
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    expect(start.status).toBe(200);
    const wsUrl = new URL(start.body.ws_url);
    expect(wsUrl.protocol).toBe('ws:');
    expect(wsUrl.pathname).toBe(`/api/sdk/conductor/${id}/ws`);
    expect(wsUrl.searchParams.get('key')).toBe(o.project.public_key);
    expect(wsUrl.searchParams.get('session_token')).toBe(start.body.session_token);

    const c = await openConductor(start.body.ws_url, { origin: SHOP });
    expect(await c.next((f) => f.type === 'hello')).toMatchObject({ resumed: false, messages: [] });
    expect(await c.next((f) => f.type === 'message')).toMatchObject({ kind: 'speak', text: 'Welcome, thanks for joining.', segment_id: 'hello' });
    // The observe instruction is turned into a task prompt for the participant, never said as written.
    expect(await c.next((f) => f.type === 'message')).toMatchObject({ kind: 'observe', segment_id: 'try', text: "Could you show me how you would export last month's report, thinking aloud as you go?" });
    expect(await c.next((f) => f.type === 'state')).toMatchObject({ awaiting: 'observe', segment: { id: 'try', mode: 'observe', index: 1, total: 3 } });

    // While observing, what the participant types as they go is kept and the conductor stays silent; page events are cues of the segment.
    c.send({ type: 'answer', text: 'Looking under Reports first, I expected the export there.' });
    expect(await c.next((f) => f.type === 'message')).toMatchObject({ role: 'participant', kind: 'answer', segment_id: 'try', text: 'Looking under Reports first, I expected the export there.' });
    expect(await c.next((f) => f.type === 'state')).toMatchObject({ awaiting: 'observe' });
    c.send({ type: 'event', event_type: 'click', event_line: 'clicked Export', data: { selector: '#export' } });
    c.send({ type: 'observe_done' });
    // The notes were read: the next question says so, naming what they noted.
    expect(await c.next((f) => f.type === 'message')).toMatchObject({ kind: 'ask', text: 'Thank you for your notes about Reports. Could you tell me about the last time you exported a report?', segment_id: 'ask' });

    c.send({ type: 'answer', text: 'Last week.' });
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'ask', text: expect.stringContaining('a bit more') });
    c.send({ type: 'answer', text: "I couldn't find the export button anywhere and it was really frustrating, so I gave up and took screenshots instead." });
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'ask', text: 'What got in the way?' });
    c.send({ type: 'answer', text: 'The menu hides it under Settings, which makes no sense to me at all when I just want my data.' });
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'closing' });
    expect(await c.next((f) => f.type === 'ended')).toMatchObject({ session_id: id });
    await c.close();

    const detail = await o.call('GET', `/sessions/${id}`);
    expect(detail.body.session.status).toBe('completed');
    const msgs = detail.body.session.messages;
    expect(msgs.map((m: any) => m.role)).toEqual(['conductor', 'conductor', 'participant', 'conductor', 'participant', 'conductor', 'participant', 'conductor', 'participant', 'conductor']);
    for (let i = 1; i < msgs.length; i++) expect(msgs[i].timestamp_ms).toBeGreaterThanOrEqual(msgs[i - 1].timestamp_ms);
    const cues = await o.call('GET', `/sessions/${id}/cues`);
    expect(cues.body.cues).toEqual([expect.objectContaining({ cue: 'clicked Export', segment_id: 'try' })]);
    const types = detail.body.session.events.map((e: any) => e.event_type);
    expect(types).toEqual(expect.arrayContaining(['consent', 'started', 'segment_started', 'click', 'ended']));

    const done = await settled(o.call, id);
    expect(done.status).toBe('processed');
    expect(done.evidence_count).toBeGreaterThan(0);
    const signals = await o.call('GET', `/signals?session_id=${id}`);
    expect(signals.body.signals.some((s: any) => s.quote.includes("couldn't find the export button"))).toBe(true);

    // Ending again changes nothing; the socket of an ended interview says so.
    const again = await sdk('POST', `/api/sdk/conductor/${id}/end`);
    expect(again.status).toBe(200);
    expect(again.body.session.status).toBe('completed');
    expect((await sdk('POST', `/api/sdk/conductor/${id}/start`, {})).body.code).toBe('session_ended');
  });

  it('resumes where it stopped after a reconnect, with the runtime token or a kept compatibility token', async () => {
    const id = await consentedInterview();
    const token = 'compat-token-0123456789abcdef';
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, { session_token: token });
    expect(start.body.session_token).toBe(token);
    expect(new URL(start.body.ws_url).searchParams.get('session_token')).toBe(token);
    const first = await openConductor(start.body.ws_url, { origin: SHOP });
    await first.next((f) => f.type === 'state' && f.awaiting === 'observe');
    first.send({ type: 'observe_done' });
    await first.next((f) => f.type === 'message' && f.kind === 'ask');
    await first.close();

    const runtime = await sdk('POST', `/api/sdk/sessions/${id}/runtime-token`);
    expect(runtime.status).toBe(200);
    expect(runtime.body).toMatchObject({ token_type: 'Bearer', session_id: id, expires_in: 600 });
    const url = new URL(start.body.ws_url);
    url.searchParams.set('session_token', runtime.body.token);
    const second = await openConductor(url.toString(), { origin: SHOP });
    const hello = await second.next((f) => f.type === 'hello');
    expect(hello.resumed).toBe(true);
    expect(hello.messages.map((m: any) => m.text)).toEqual(['Welcome, thanks for joining.', "Could you show me how you would export last month's report, thinking aloud as you go?", 'Could you tell me about the last time you exported a report?']);
    expect(await second.next((f) => f.type === 'state')).toMatchObject({ awaiting: 'answer', segment: { id: 'ask' } });
    expect(second.frames.filter((f) => f.type === 'message')).toEqual([]); // nothing is said twice
    second.send({ type: 'answer', text: 'Yesterday, and honestly it took me ages to find where the export lived in the menus.' });
    expect(await second.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ text: 'What got in the way?' });
    second.send({ type: 'end' });
    await second.next((f) => f.type === 'ended');
    await second.close();
    expect((await o.call('GET', `/sessions/${id}`)).body.session.status).toBe('completed');
  });

  it('refuses sockets without a valid token, key or origin', async () => {
    const id = await consentedInterview();
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const url = new URL(start.body.ws_url);
    url.searchParams.set('session_token', 'wrong-token-wrong-token');
    await expect(openConductor(url.toString(), { origin: SHOP })).rejects.toMatchObject({ status: 401, body: { code: 'invalid_session_token' } });
    await expect(openConductor(start.body.ws_url, { origin: 'http://evil.example' })).rejects.toMatchObject({ status: 403, body: { code: 'origin_not_allowed', retryable: false } });
    await expect(openConductor(start.body.ws_url)).rejects.toMatchObject({ status: 403, body: { code: 'origin_required' } });
    // A malformed address is refused, and the server lives on.
    const malformed = new URL(start.body.ws_url);
    malformed.pathname = '/api/sdk/conductor/%E0/ws';
    await expect(openConductor(malformed.toString().replace('%25E0', '%E0'), { origin: SHOP })).rejects.toMatchObject({ status: 400 });
    expect((await svc.api('GET', '/api/health')).status).toBe(200);
    // A runtime token does not open an interview that was never started (no consent yet).
    const fresh = (await sdk('POST', '/api/sdk/sessions', { study_id: studyRef, interview_mode: 'text' })).body.session.id;
    const runtime = (await sdk('POST', `/api/sdk/sessions/${fresh}/runtime-token`)).body.token;
    const early = new URL(start.body.ws_url);
    early.pathname = `/api/sdk/conductor/${fresh}/ws`;
    early.searchParams.set('session_token', runtime);
    await expect(openConductor(early.toString(), { origin: SHOP })).rejects.toMatchObject({ status: 422, body: { code: 'session_not_started' } });
    const noKey = new URL(start.body.ws_url);
    noKey.searchParams.delete('key');
    await expect(openConductor(noKey.toString(), { origin: SHOP })).rejects.toMatchObject({ status: 401, body: { code: 'sdk_key_required' } });
  });

  it('needs consent before it starts, and a bad frame is an error that changes nothing', async () => {
    const created = await sdk('POST', '/api/sdk/sessions', { study_id: studyRef, interview_mode: 'text' });
    const id = created.body.session.id;
    expect((await sdk('POST', `/api/sdk/conductor/${id}/start`, {})).body.code).toBe('consent_required');
    expect((await sdk('POST', `/api/sdk/conductor/${id}/start`, { session_token: 'short' })).status).toBe(400);
    await sdk('POST', `/api/sdk/sessions/${id}/consent`, { consent_recording: true, consent_data_use: true, consent_version: 'v1' });
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const c = await openConductor(start.body.ws_url, { origin: SHOP });
    await c.next((f) => f.type === 'state');
    c.send({ type: 'shout', text: 'hi' });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'invalid_frame' });
    c.ws.send('not json');
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'invalid_frame' });
    // Frames get the refusals every JSON body gets: no 10,000-deep nesting, no NUL or lone surrogate.
    const countEvents = async () => (await svc.services.db.pool.query(`SELECT count(*)::int AS n FROM interview_events WHERE interview_id = $1`, [id])).rows[0].n as number;
    const before = await countEvents();
    c.ws.send(`{"type":"event","event_type":"click","event_line":"x","data":{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`);
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'too_deep' });
    c.send({ type: 'event', event_type: 'click', event_line: 'clicked\u0000', data: {} });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('event_line: must not contain NUL') });
    c.ws.send('{"type":"answer","text":"I was \\ud800 stuck"}');
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ error: expect.stringContaining('text: must not contain NUL bytes or unpaired surrogates') });
    expect(await countEvents()).toBe(before);
    c.send({ type: 'ping' });
    await c.next((f) => f.type === 'pong');
    await c.close();
  });

  it('checkpoints on unload and ends the interview when the participant does not come back', async () => {
    const id = await consentedInterview();
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const c = await openConductor(start.body.ws_url, { origin: SHOP });
    await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
    c.send({ type: 'observe_done' });
    await c.next((f) => f.type === 'message' && f.kind === 'ask');
    c.send({ type: 'answer', text: 'It was fine overall, but I could not find the export button anywhere on the page.' });
    await c.next((f) => f.type === 'message' && f.role === 'conductor' && f.kind === 'ask');
    const cp = await sdk('POST', `/api/sdk/conductor/${id}/checkpoint`, { snapshot: { scroll: 120 }, reason: 'pagehide' });
    expect(cp.status).toBe(200);
    expect(Date.parse(cp.body.finalize_after)).toBeGreaterThan(Date.now() - 1000);
    const left = Date.now();
    await c.close();
    const until = Date.now() + 20_000;
    let session: any = {};
    while (Date.now() < until && session.status !== 'completed') {
      await new Promise((r) => setTimeout(r, 250));
      session = (await o.call('GET', `/sessions/${id}`)).body.session;
    }
    expect(session.status).toBe('completed');
    // It ended when the participant left, not when the grace period ran out (1 s here).
    expect(Date.parse(session.ended_at)).toBeLessThan(left + 800);
    expect((await settled(o.call, id)).status).toBe('processed');
    const big = await sdk('POST', `/api/sdk/conductor/${id}/checkpoint`, { snapshot: { blob: 'x'.repeat(70_000) } });
    expect(big.status).toBe(400);
  });

  it('ends an interview nobody talked in as abandoned, with nothing to process', async () => {
    const id = await consentedInterview();
    await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const end = await sdk('POST', `/api/sdk/conductor/${id}/end`);
    expect(end.body).toMatchObject({ session: { status: 'abandoned', processing_status: 'not_started' }, queued: false });
  });
});

describe('what the participant hears', () => {
  const conductorTurns = (c: Awaited<ReturnType<typeof openConductor>>) => c.frames.filter((f) => f.type === 'message' && f.role === 'conductor');

  it('runs the starter study in natural second-person questions, silent while observing, closing with its thank-you', async () => {
    const id = await consentedInterview({}, 'starter-study');
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const c = await openConductor(start.body.ws_url, { origin: SHOP });
    const ask = () => c.next((f) => f.type === 'message' && f.role === 'conductor');
    expect(await ask()).toMatchObject({ kind: 'speak', segment_id: 'welcome' });
    expect(await ask()).toMatchObject({ kind: 'ask', text: 'What did you come to do today?' });
    c.send({ type: 'answer', text: 'Invoices.' });
    expect(await ask()).toMatchObject({ kind: 'ask', text: 'Could you tell me more about invoices?' });
    c.send({ type: 'answer', text: 'Meh.' });
    const second = await ask();
    expect(second.text).not.toMatch(/invoices|example/i); // a second follow-up, worded differently; the script asks for the last time itself
    c.send({ type: 'answer', text: 'Fine.' });
    expect(await ask()).toMatchObject({ kind: 'ask', text: 'What did you use for it before?' }); // at most two follow-ups
    c.send({ type: 'answer', text: 'A spreadsheet my accountant set up years ago, and a lot of email.' });
    expect(await ask()).toMatchObject({ kind: 'ask', text: 'Could you tell me about the last time you did it?' });
    c.send({ type: 'answer', text: 'Last Tuesday I had to send twelve invoices to clients and the PDF export kept timing out on me.' });
    expect(await ask()).toMatchObject({ kind: 'ask', text: 'What did you do then?' }); // one open probe into the trouble
    c.send({ type: 'answer', text: 'I tried again four times until one went through.' });
    expect(await ask()).toMatchObject({ kind: 'observe', text: 'Could you go ahead with what you came to do today, as you normally would, and tell me what you notice along the way?' });
    await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
    // While the participant works the conductor says nothing, whatever they do.
    const before = conductorTurns(c).length;
    for (const line of ['clicked Invoices', 'clicked Export', 'clicked Cancel']) c.send({ type: 'event', event_type: 'click', event_line: line, data: {} });
    c.send({ type: 'ping' });
    await c.next((f) => f.type === 'pong');
    expect(conductorTurns(c).length).toBe(before);
    c.send({ type: 'observe_done' });
    expect(await ask()).toMatchObject({ text: 'How did it go for you?' });
    c.send({ type: 'answer', text: 'The export dialog froze for about a minute before anything happened, twice in a row.' });
    expect(await ask()).toMatchObject({ text: 'Apart from what you mentioned, what, if anything, took longer than you expected?' }); // the script digs into the moment itself
    c.send({ type: 'answer', text: 'Finding the bulk export option, which turned out not to exist at all.' });
    expect(await ask()).toMatchObject({ text: 'What did you do at that point?' });
    c.send({ type: 'answer', text: 'I printed each invoice to PDF by hand, one at a time, for about an hour.' });
    expect(await ask()).toMatchObject({ text: 'What would make the product more useful to you?' });
    c.send({ type: 'answer', text: 'Is there a bulk export somewhere? A bulk export that works would make me recommend it tomorrow.' });
    // A question of their own is heard before the interview goes on.
    expect(await ask()).toMatchObject({ kind: 'speak', text: ACKNOWLEDGEMENT });
    expect(await ask()).toMatchObject({ text: 'Is there anything else you would like to tell us?' });
    // To "anything else?", a no is the answer, and a goodbye with it gets the study's own closing, not the early one.
    c.send({ type: 'answer', text: 'No, thanks. Bye!' });
    const closing = await ask();
    expect(closing).toMatchObject({ kind: 'closing', segment_id: 'thanks', text: starterScript.segments.at(-1)!.speak_text });
    await c.next((f) => f.type === 'ended');
    await c.close();
    const turns = conductorTurns(c);
    expect(turns.filter((t) => t.kind === 'closing')).toHaveLength(1);
    for (const t of turns) expect(directedText(t.text), t.text).toBeNull();
    for (const s of starterScript.segments) {
      for (const written of ['instruction', 'conductor_context'] as const) {
        const text = (s as Record<string, string | undefined>)[written];
        if (text) for (const t of turns) expect(t.text).not.toContain(text.split('. ')[0]);
      }
    }
  });

  it('tells a participant who asks whether it is anonymous what is kept with their answers, and asks the question again', async () => {
    for (const [extra, line] of [[{}, ANONYMITY_NAMED], [{ participant_name: undefined }, ANONYMITY]] as const) {
      const id = await consentedInterview(extra, 'starter-study');
      const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
      const c = await openConductor(start.body.ws_url, { origin: SHOP });
      const ask = () => c.next((f) => f.type === 'message' && f.role === 'conductor');
      await ask(); // welcome
      expect(await ask()).toMatchObject({ text: 'What did you come to do today?' });
      // Read as a choice between two readings before ("Either is fine…"), and as the answer.
      c.send({ type: 'answer', text: 'Will this be linked to my email or my account?' });
      expect(await ask()).toMatchObject({ kind: 'speak', text: line });
      expect(await ask()).toMatchObject({ kind: 'ask', text: 'What did you come to do today?' });
      c.send({ type: 'end' });
      await c.next((f) => f.type === 'ended');
      await c.close();
    }
  });

  it('answers a question about the interview and asks again, builds on what was said before, and lets a participant go', async () => {
    const id = await consentedInterview({}, 'starter-study');
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const c = await openConductor(start.body.ws_url, { origin: SHOP });
    const ask = () => c.next((f) => f.type === 'message' && f.role === 'conductor');
    await ask(); // welcome
    expect(await ask()).toMatchObject({ text: 'What did you come to do today?' });
    c.send({ type: 'answer', text: 'Sorry, who are you? Is this a real person?' });
    expect(await ask()).toMatchObject({ kind: 'speak', text: WHO_WE_ARE });
    expect(await ask()).toMatchObject({ kind: 'ask', text: 'What did you come to do today?' }); // not taken as the answer
    // How long, typed without its "?", is told in the minutes the invitation promised.
    c.send({ type: 'answer', text: 'how long is this' });
    expect(await ask()).toMatchObject({ kind: 'speak', text: 'It takes about 10 minutes in all. After this, there are 4 more short topics to cover. You can stop at any time with "End interview".' });
    expect(await ask()).toMatchObject({ kind: 'ask', text: 'What did you come to do today?' });
    c.send({ type: 'answer', text: 'Paying supplier bills. Until March we did it all in Excel and online banking, and what would really help is a warning before the bank link expires.' });
    // What they used before is told: the next question is the last time, not "What did you use for it before?".
    expect(await ask()).toMatchObject({ text: 'Could you tell me about the last time you did it?' });
    c.send({ type: 'answer', text: "I'd rather not go into that." });
    expect(await ask()).toMatchObject({ kind: 'speak', text: SKIPPED });
    expect(await ask()).toMatchObject({ kind: 'observe' });
    c.send({ type: 'answer', text: 'Done.' }); // typed, it ends the task as the button does
    expect(await ask()).toMatchObject({ text: 'How did it go for you?' });
    c.send({ type: 'answer', text: 'It went fine in the end, but reconnecting the bank took me twenty minutes again this morning.' });
    // How long it took is told: "What, if anything, took longer…?" is not asked.
    expect(await ask()).toMatchObject({ text: 'What did you do at that point?' });
    c.send({ type: 'answer', text: 'I already told you.' });
    expect(await ask()).toMatchObject({ kind: 'speak', text: ALREADY_SAID });
    // The wish told earlier is built on, not asked for again as if unheard.
    expect(await ask()).toMatchObject({ text: 'Apart from what you mentioned, what would make the product more useful to you?' });
    c.send({ type: 'answer', text: 'Sorry, can I go now? I have a meeting.' });
    expect(await ask()).toMatchObject({ kind: 'closing', text: STOPPING });
    await c.next((f) => f.type === 'ended');
    await c.close();
    for (const t of conductorTurns(c)) expect(directedText(t.text), t.text).toBeNull();
  });

  /** A starter-study interview over the socket, answered up to its task (the answers tell the goal and what was used before). */
  const atTheTask = async () => {
    const id = await consentedInterview({}, 'starter-study');
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const c = await openConductor(start.body.ws_url, { origin: SHOP });
    for (const answer of ['I came in to pay my supplier bills. Until March we did it all in Excel, and on Tuesday I paid three suppliers and one payment bounced.', 'I called the bank and paid that one again by hand.']) {
      await c.next((f) => f.type === 'state' && f.awaiting === 'answer');
      c.send({ type: 'answer', text: answer });
    }
    return c;
  };

  it('hears a question typed during the task, without guiding, stays silent to notes, and ends the task when the participant gives up', async () => {
    const c = await atTheTask();
    await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
    const replyTo = async (text: string) => {
      c.send({ type: 'answer', text });
      await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
      return conductorTurns(c).at(-1)!.text;
    };
    // Recording was not agreed: the participant is told only their typing is kept.
    expect(await replyTo('How can you see my screen?')).toBe(NOT_RECORDED);
    expect(await replyTo('Where is the pay button?')).toBe(ON_YOUR_OWN);
    expect(await replyTo('Found Bills, slow to load.')).toBe(ON_YOUR_OWN); // thinking aloud: no reply
    expect(await replyTo('Should I use the real card?')).toBe(AS_YOU_WOULD);
    expect(await replyTo('Is the batch option gone?')).toBe(AS_YOU_WOULD); // then it watches in silence
    expect(await replyTo('It wants my bank password, is this safe??')).toBe(YOUR_CALL);
    // Giving up ends the task, without blame, and the interview goes on.
    c.send({ type: 'answer', text: 'OK I give up.' });
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'speak', text: GAVE_UP });
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'ask' });
    await c.close();
  });

  it("answers a question during a task with the guide's own reply ('If they ask, say: \"…\"'), once", async () => {
    const guided = { version: 2, segments: [
      { id: 'hi', mode: 'speak', title: 'Hi', speak_text: 'Thanks for testing the revenue page.' },
      { id: 'export', mode: 'observe', title: 'Export', instruction: 'TASK: "Now export the monthly revenue report so you could send it to a colleague."\nDon\'t help them. If they ask, say: "What would you do if I weren\'t here?" Note time on task.' },
      { id: 'bye', mode: 'speak', title: 'Bye', speak_text: 'Thanks, that is all.' },
    ] };
    const created = await o.call('POST', '/studies', { title: 'Guided export', status: 'active', script: guided, invitation: validInvitation, visibility: visibility([['include', 'subtree', '/revenue']]), allowed_origins: [SHOP] });
    expect(created.status).toBe(201);
    const id = await consentedInterview({}, created.body.study.ref);
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const c = await openConductor(start.body.ws_url, { origin: SHOP });
    await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
    const replyTo = async (text: string) => {
      c.send({ type: 'answer', text });
      await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
      return conductorTurns(c).at(-1)!.text;
    };
    expect(await replyTo('What am I supposed to do here?')).toBe("What would you do if I weren't here?");
    // Asked again: the interviewer's own line, as without a reply in the guide.
    expect(await replyTo('Where is the export button?')).toBe(ON_YOUR_OWN);
    await c.close();
  });

  it('thanks a participant for what they add at the end, before the closing words, and not for a no', async () => {
    for (const [last, heard] of [['Please, please fix the export, it costs me an hour every month.', true], ['No, that is all, thanks.', false], ['No thanks, all good', false], ["That's all from me, thanks!", false]] as const) {
      const c = await atTheTask();
      await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
      c.send({ type: 'observe_done' });
      const answers = ['It went fine, the bills page loaded quickly.', 'Nothing took longer, honestly.', 'A reminder before the bank link expires.'];
      for (let asked = await c.next((f) => f.type === 'message' && f.kind === 'ask'); !/anything else/.test(asked.text); asked = await c.next((f) => f.type === 'message' && f.kind === 'ask'))
        c.send({ type: 'answer', text: answers.shift() ?? 'A reminder would be enough, nothing more on that.' });
      c.send({ type: 'answer', text: last });
      await c.next((f) => f.type === 'ended');
      const end = conductorTurns(c).slice(-2);
      expect(end[1]).toMatchObject({ kind: 'closing', text: starterScript.segments.at(-1)!.speak_text });
      expect(end[0].text === NOTED_LAST, last).toBe(heard);
      await c.close();
    }
  });

  it('skips the task for a participant who asks to, and tells one who is unsure that they may', async () => {
    const c = await atTheTask();
    await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
    c.send({ type: 'answer', text: "Hmm, I'm not sure I want to carry on, this is more than I expected." });
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'speak', text: UP_TO_YOU });
    c.send({ type: 'answer', text: "Can I skip this one? I've never paid a supplier in here." });
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'speak', text: SKIPPED });
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'ask', segment_id: 'friction' });
    await c.close();
  });

  it('lets a participant go in the middle of the task', async () => {
    const c = await atTheTask();
    // The task is put in the participant's own words.
    expect(await c.next((f) => f.type === 'message' && f.kind === 'observe')).toMatchObject({
      text: 'Could you go ahead and pay your supplier bills, as you normally would, and tell me what you notice along the way?',
    });
    await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
    c.send({ type: 'answer', text: 'Sorry, I have to go now.' });
    // Let go at once, in words that fit leaving early: not the study's "That is everything I wanted to ask".
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor' && f.kind !== 'observe')).toMatchObject({ kind: 'closing', text: STOPPING });
    await c.next((f) => f.type === 'ended');
    await c.close();
  });

  it('asks something sensible about the segment title when the instruction is empty, all coaching, very long or not English', async () => {
    const odd = {
      version: 2,
      goals: [],
      segments: [
        { id: 'none', mode: 'talk', title: 'Your billing setup' },
        { id: 'blank', mode: 'talk', title: 'Paying invoices', instruction: '   ' },
        { id: 'coach', mode: 'talk', title: 'Reminders', instruction: 'Do not lead. Note hesitations. Stay neutral and keep it short.' },
        { id: 'long', mode: 'talk', title: 'Exports', instruction: 'Note how they navigate and keep quiet while they work. '.repeat(40).slice(0, 2000) },
        { id: 'spanish', mode: 'talk', title: 'What brought you here', instruction: 'Pregunte al participante qué intentaba hacer hoy y qué usaba antes.' },
        { id: 'watch', mode: 'observe', title: 'Try it', instruction: 'Do not help unless they are stuck for a minute.' },
      ],
    };
    expect(odd.segments[3].instruction!.length).toBe(2000);
    const created = await o.call('POST', '/studies', { title: 'Odd instructions', script: odd, status: 'active', visibility: visibility([['include', 'exact', '/odd']]) });
    expect(created.status).toBe(201);
    const review = await o.call('POST', '/studies/validate-script', { script: { ...odd, segments: [...odd.segments, { id: 'empty', mode: 'talk', title: 'Empty', instruction: '' }] } });
    expect(review.body.participant_questions.map((q: any) => q.questions[0])).toEqual([
      'Could you tell me about your billing setup?',
      'Could you tell me about paying invoices?',
      'Could you tell me about reminders?',
      'Could you tell me about exports?',
      'What brought you here?',
      expect.stringMatching(/^For this part, "Try it", could you/),
      'Could you tell me about empty?',
    ]);
    const id = await consentedInterview({}, created.body.study.ref);
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const c = await openConductor(start.body.ws_url, { origin: SHOP });
    const asked: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = await c.next((f) => f.type === 'message' && f.role === 'conductor');
      asked.push(m.text);
      c.send({ type: 'answer', text: 'I pay around forty invoices a month from the billing page, mostly on Fridays after lunch.' });
    }
    expect(asked).toEqual(review.body.participant_questions.slice(0, 5).map((q: any) => q.questions[0]));
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'observe', text: review.body.participant_questions[5].questions[0] });
    c.send({ type: 'observe_done' });
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'closing' });
    await c.close();
    for (const t of conductorTurns(c)) expect(directedText(t.text), t.text).toBeNull();
    await o.call('PATCH', `/studies/${created.body.study.ref}`, { status: 'paused' });
  });
});

describe('the model interviewer keeps the same rule', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await fakeOpenAI('sk-echo-test');
  });
  afterAll(() => fake?.close());

  it('sends the built-in question instead of a reply that repeats the instruction or context', async () => {
    const instruction = 'Ask what the participant was trying to get done today and what they used before. Ask about the last time they exported a report.';
    const context = 'Serves g1. Prefer stories about the last time over opinions in general.';
    const echoScript = {
      version: 2,
      goals: [{ id: 'g1', description: 'Understand exporting' }],
      segments: [{ id: 'ask', mode: 'talk', title: 'Exporting', instruction, conductor_context: context }, { id: 'bye', mode: 'speak', title: 'Bye', speak_text: 'Thank you!' }],
    };
    const created = await o.call('POST', '/studies', { title: 'Echo study', script: echoScript, goals: echoScript.goals, status: 'active', visibility: visibility([['include', 'exact', '/echo']]) });
    expect(created.status).toBe(201);
    await o.call('PATCH', '/settings', { openai_api_key: 'sk-echo-test', openai_base_url: fake.url });
    try {
      const id = await consentedInterview({}, created.body.study.ref);
      const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
      const c = await openConductor(start.body.ws_url, { origin: SHOP });
      const next = () => c.next((f) => f.type === 'message' && f.role === 'conductor');
      const answer = 'I was sending the monthly revenue report to my manager, and before this I used a spreadsheet for it.';

      // The whole instruction: not sent; the built-in interviewer's first question is.
      fake.chat = () => ({ say: instruction, done: false });
      const calls = fake.calls.length;
      expect(await next()).toMatchObject({ kind: 'ask', text: 'What were you trying to get done today, and what did you use before?' });
      expect(fake.calls.length).toBeGreaterThan(calls); // the model was asked, and overruled
      // A question of the model's own goes through as written.
      fake.chat = () => ({ say: 'What were you exporting it for, and who reads it?', done: false });
      c.send({ type: 'answer', text: answer });
      expect(await next()).toMatchObject({ text: 'What were you exporting it for, and who reads it?' });
      // A large part of the instruction, or the context: the built-in next question instead.
      fake.chat = () => ({ say: 'Okay. Now ask about the last time they exported a report.', done: false });
      c.send({ type: 'answer', text: answer });
      expect(await next()).toMatchObject({ text: 'Could you tell me about the last time you exported a report?' });
      fake.chat = () => ({ say: 'Serves g1. Prefer stories about the last time over opinions in general.', done: false });
      c.send({ type: 'answer', text: 'Yesterday, and the export took four tries because the first three files were empty.' });
      const after = await next();
      expect(after.text).not.toContain('Serves');
      expect(after.text).not.toContain('Prefer stories');
      expect(after).toMatchObject({ kind: 'closing', text: 'Thank you!' });
      for (const t of c.frames.filter((f) => f.type === 'message' && f.role === 'conductor')) expect(directedText(t.text), t.text).toBeNull();
      await c.close();
    } finally {
      await o.call('PATCH', '/settings', { openai_api_key: null, openai_base_url: null });
      await o.call('PATCH', `/studies/${created.body.study.ref}`, { status: 'paused' });
    }
  });
});

describe('conductor limits', () => {
  it('allows 10 starts a minute per IP and 5 voice secrets', async () => {
    const id = await consentedInterview();
    // The windows are whole clock minutes shared by every test of this file: counted afresh, inside one window.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 100));
    await svc.services.db.pool.query('DELETE FROM rate_limit_hits');
    for (let i = 0; i < 10; i++) expect((await sdk('POST', `/api/sdk/conductor/${id}/start`, {})).status).toBe(200);
    const over = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBeTruthy();
    for (let i = 0; i < 5; i++) expect((await sdk('POST', `/api/sdk/conductor/${id}/sts-secret`)).status).toBe(503);
    expect((await sdk('POST', `/api/sdk/conductor/${id}/sts-secret`)).status).toBe(429);
  });
});

describe('conductor voice', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await fakeOpenAI('sk-voice-test');
  });
  afterAll(() => fake?.close());

  it('answers 503 with text guidance without a model key, then proxies secrets and calls with one', async () => {
    const id = await consentedInterview();
    await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    for (const path of ['transcription-secret', 'sts-secret']) {
      const res = await sdk('POST', `/api/sdk/conductor/${id}/${path}`);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'voice_unavailable', retryable: false, action: expect.stringContaining('text') });
    }
    await o.call('PATCH', '/settings', { openai_api_key: 'sk-voice-test', openai_base_url: fake.url });
    const secret = await sdk('POST', `/api/sdk/conductor/${id}/sts-secret`);
    expect(secret.status).toBe(200);
    expect(secret.body).toMatchObject({ client_secret: 'ek_test_secret', model: 'gpt-realtime' });
    expect((await sdk('POST', `/api/sdk/conductor/${id}/transcription-secret`)).body.client_secret).toBe('ek_test_secret');
    // The script is on its speak/observe part: a realtime call needs a talk segment.
    const early = await sdk('POST', `/api/sdk/conductor/${id}/realtime-call`, { sdp: 'v=0 offer sdp' });
    expect(early.body.code).toBe('not_in_talk_mode');

    // With the key the model leads the talk segment.
    fake.chat = () => ({ say: 'What were you trying to export, and for whom?', done: false });
    const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    const c = await openConductor(start.body.ws_url, { origin: SHOP });
    await c.next((f) => f.type === 'state' && f.awaiting === 'observe');
    c.send({ type: 'observe_done' });
    expect(await c.next((f) => f.type === 'message' && f.kind === 'ask')).toMatchObject({ text: 'What were you trying to export, and for whom?' });
    const call = await sdk('POST', `/api/sdk/conductor/${id}/realtime-call`, { sdp: 'v=0 offer sdp' });
    expect(call.status).toBe(200);
    expect(call.body).toEqual({ sdp: 'v=0 answer sdp', call_id: 'rtc_test_call', model: 'gpt-realtime', reasoning_enabled: false, sideband_enabled: false });
    fake.chat = () => ({ say: null, done: true });
    // While the model thinks, the interview row is not held: other calls on it go through.
    let release = () => {};
    fake.chatGate = new Promise<void>((r) => (release = r));
    const asked = fake.calls.length;
    c.send({ type: 'answer', text: 'A monthly revenue report for my manager, which I export every month.' });
    while (fake.calls.length === asked) await new Promise((r) => setTimeout(r, 20));
    expect((await sdk('POST', `/api/sdk/sessions/${id}/recording-health`, { status: 'recording' })).status).toBe(200);
    release();
    fake.chatGate = null;
    expect(await c.next((f) => f.type === 'message' && f.role === 'conductor')).toMatchObject({ kind: 'closing' });
    await c.close();
    expect(fake.calls.some((x) => x.path === '/chat/completions')).toBe(true);
    // The provider failing is a retryable 502, never a leak of its answer.
    fake.status = 500;
    const id2 = await consentedInterview();
    await sdk('POST', `/api/sdk/conductor/${id2}/start`, {});
    const broken = await sdk('POST', `/api/sdk/conductor/${id2}/sts-secret`);
    expect(broken.status).toBe(502);
    expect(broken.body).toMatchObject({ code: 'voice_provider_error', retryable: true });
    fake.status = 200;
    await o.call('PATCH', '/settings', { openai_api_key: null, openai_base_url: null });
  });
});
