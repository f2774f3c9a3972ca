import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { RTCPeerConnection, type RTCDataChannel } from 'werift';
import { startTestService, type TestService } from './helpers/service.ts';
import { chooseVoice, click, customerPage, shadow, voiceScript, waitFor } from './helpers/voice-widget.ts';
import { ownerWithProject, settled, validInvitation, visibility } from './helpers/fixtures.ts';
import { launchBrowser } from './helpers/browser.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';

/**
 * The realtime voice path: the widget calls the realtime model over WebRTC through the
 * service's realtime-call proxy. The model here is a loopback peer written with werift (a
 * WebRTC stack in TypeScript): it answers the SDP, counts the participant's audio packets,
 * finishes each line the browser asks it to say, and sends transcriptions of the participant
 * on the data channel, as the realtime service does.
 */
const script = voiceScript('Ask how they export their weekly report and what gets in the way.', 'Ask what would make exporting easier.');
const KEY = 'sk-realtime-test';
const SPOKEN = ['I export the sales report every Friday and it is really slow.', 'A button that exports every region at once would help a lot.'];

/** The realtime model as a WebRTC peer. */
function fakeRealtimePeer() {
  const peer = { audioPackets: 0, linesAsked: [] as string[], closed: [] as RTCPeerConnection[] };
  let answered = 0;
  const answerOffer = async (offer: string): Promise<string> => {
    const pc = new RTCPeerConnection();
    peer.closed.push(pc);
    pc.onTransceiverAdded.subscribe((t) => t.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => peer.audioPackets++)));
    pc.onDataChannel.subscribe((dc: RTCDataChannel) => {
      dc.onMessage.subscribe((raw) => {
        const ev = JSON.parse(String(raw)) as { type: string; response?: { instructions?: string } };
        if (ev.type !== 'response.create') return;
        const line = ev.response?.instructions ?? '';
        peer.linesAsked.push(line);
        // The line is "spoken", then the participant answers a question.
        setTimeout(() => dc.send(JSON.stringify({ type: 'response.done' })), 200);
        if (!line.includes('?')) return;
        const said = SPOKEN[Math.min(answered++, SPOKEN.length - 1)];
        setTimeout(() => dc.send(JSON.stringify({ type: 'input_audio_buffer.speech_started' })), 500);
        setTimeout(() => dc.send(JSON.stringify({ type: 'conversation.item.input_audio_transcription.completed', transcript: said })), 1500);
      });
    });
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());
    await new Promise((r) => setTimeout(r, 300));
    return pc.localDescription!.sdp;
  };
  return { peer, answerOffer };
}



let svc: TestService;
let fake: FakeOpenAI;
let browser: Browser;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let site: Awaited<ReturnType<typeof customerPage>>;
let studyRef: string;
const realtime = fakeRealtimePeer();

beforeAll(async () => {
  fake = await fakeOpenAI(KEY);
  fake.realtimeAnswer = realtime.answerOffer;
  // The model interviewer asks each segment's question once, then moves on.
  let turn = 0;
  fake.chat = () => (turn++ % 2 === 0 ? { say: turn === 1 ? 'How do you export your weekly report?' : 'What would make exporting easier?', done: false } : { say: null, done: true });
  svc = await startTestService({ env: { WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  o = await ownerWithProject(svc, 'realtime@example.com', 'Realtime');
  await o.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: fake.url });
  site = await customerPage(`${svc.url}/sdk/widget.js`, o.project.public_key);
  const res = await o.call('POST', '/studies', {
    title: 'Realtime study', status: 'active', goals: script.goals, script, invitation: validInvitation,
    visibility: visibility([['include', 'subtree', '/']]), allowed_origins: [site.origin],
  });
  studyRef = res.body.study.ref;
  browser = await launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--disable-features=WebRtcHideLocalIpsWithMdns', '--autoplay-policy=no-user-gesture-required']);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const pc of realtime.peer.closed) await pc.close().catch(() => {});
  await site?.close();
  await fake?.close();
  await svc?.stop();
});

describe('voice interview over a realtime call', () => {
  it('offers the realtime path when the project has a model key', async () => {
    const study = (await svc.api('GET', `/api/sdk/study/${studyRef}`, { headers: { 'x-project-key': o.project.public_key, origin: site.origin } })).body.study;
    expect(study.voice).toEqual({ available: true, path: 'realtime', reason: null });
  });

  it('relays the SDP, starts the session with the segment as instructions, stores both sides as messages and uploads the recording', async () => {
    const page = await browser.newPage();
    await chooseVoice(page, `${site.origin}/reports`);
    await waitFor(page, `root.textContent.includes('You can close this panel.')`, 120_000);

    // The proxy started the call with the current segment's instruction and no replies of the model's own.
    expect(fake.realtimeSessions).toHaveLength(1);
    const session = fake.realtimeSessions[0];
    expect(session).toMatchObject({ type: 'realtime', model: 'gpt-realtime', audio: { input: { turn_detection: { create_response: false } } } });
    expect(session.instructions).toContain('Ask how they export their weekly report and what gets in the way.');
    // The model was asked to say the conductor's lines, and heard the participant.
    expect(realtime.peer.linesAsked.join(' | ')).toContain('How do you export your weekly report?');
    expect(realtime.peer.linesAsked.join(' | ')).toContain('What would make exporting easier?');
    expect(realtime.peer.audioPackets).toBeGreaterThan(0);

    const sessions = (await o.call('GET', '/sessions?limit=10')).body.sessions as any[];
    const interview = sessions.find((s) => s.interview_mode === 'voice');
    await settled(o.call, interview.id, 90_000);
    const read = (await o.call('GET', `/sessions/${interview.id}`)).body.session;
    const answers = read.messages.filter((m: any) => m.role === 'participant').map((m: any) => m.content);
    expect(answers).toEqual(SPOKEN);
    const asked = read.messages.filter((m: any) => m.role === 'conductor').map((m: any) => m.content);
    expect(asked).toEqual(expect.arrayContaining(['How do you export your weekly report?', 'What would make exporting easier?']));
    // Messages are in the order they were said, on one clock.
    const times = read.messages.map((m: any) => m.timestamp_ms);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const audio = read.chunks.filter((c: any) => c.type === 'audio');
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.every((c: any) => typeof c.started_ms === 'number')).toBe(true);
    await page.close();
  }, 240_000);

  it('keeps refusing a realtime call before start, outside a talk segment and with an oversized SDP', async () => {
    const sdk = (method: string, p: string, body?: unknown) => svc.api(method, p, { body, headers: { 'x-project-key': o.project.public_key, origin: site.origin } });
    const id = (await sdk('POST', '/api/sdk/sessions', { study_id: studyRef, interview_mode: 'voice' })).body.session.id as string;
    expect((await sdk('POST', `/api/sdk/conductor/${id}/realtime-call`, { sdp: 'v=0 offer sdp' })).body.code).toBe('session_not_started');
    await sdk('POST', `/api/sdk/sessions/${id}/consent`, { consent_recording: true, consent_data_use: true, consent_version: 'v1' });
    await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
    // The script opens with a speak segment: no call yet.
    expect((await sdk('POST', `/api/sdk/conductor/${id}/realtime-call`, { sdp: 'v=0 offer sdp' })).body.code).toBe('not_in_talk_mode');
    const huge = await sdk('POST', `/api/sdk/conductor/${id}/realtime-call`, { sdp: `v=0 ${'a'.repeat(100_001)}` });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatch(/sdp/);
  });
});
