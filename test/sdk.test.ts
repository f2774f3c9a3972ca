import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, validInvitation, validScript, visibility } from './helpers/fixtures.ts';
import { ffmpeg, form, mediaDir, speech } from './helpers/media.ts';

const SHOP = 'https://shop.example';

/** A real WebM screen recording (VP8), as MediaRecorder makes. */
function webm(seconds = 2): Buffer {
  const out = path.join(mediaDir, `screen-${seconds}.webm`);
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=160x120:rate=10`, '-c:v', 'libvpx', '-b:v', '200k', out]);
  return fs.readFileSync(out);
}

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let studyRef: string;
const headers = (extra: Record<string, string> = {}) => ({ 'x-project-key': o.project.public_key, origin: SHOP, ...extra });
const sdk = (method: string, p: string, body?: unknown, extra: Record<string, string> = {}) => svc.api(method, p, { body, headers: headers(extra) });

async function session(consent = { consent_recording: true, consent_data_use: true, consent_version: '2026-11' }) {
  const created = await sdk('POST', '/api/sdk/sessions', { study_id: studyRef, interview_mode: 'screen' });
  expect(created.status).toBe(201);
  const id = created.body.session.id as string;
  if (consent) expect((await sdk('POST', `/api/sdk/sessions/${id}/consent`, consent)).status).toBe(200);
  return id;
}

beforeAll(async () => {
  svc = await startTestService();
  o = await ownerWithProject(svc, 'sdk@example.com', 'Widget');
  const res = await o.call('POST', '/studies', {
    title: 'Shop study', status: 'active', goals: validScript.goals, script: validScript, invitation: validInvitation,
    visibility: visibility([['include', 'subtree', '/checkout']]), allowed_origins: [SHOP],
  });
  expect(res.status).toBe(201);
  studyRef = res.body.study.ref;
});
afterAll(() => svc?.stop());
beforeEach(() => svc.services.db.pool.query('DELETE FROM rate_limit_hits'));

describe('origin guard', () => {
  it('places the study only for its allowed origins and records each refusal on the study', async () => {
    const ok = await sdk('GET', '/api/sdk/placement?pathname=/checkout/pay&language=en');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ outcome: 'match', study_ref: studyRef, invitation: { launcher: { label: 'Give feedback' } } });
    // Default ports and case do not matter.
    expect((await sdk('GET', '/api/sdk/placement?pathname=/checkout', undefined, { origin: 'HTTPS://Shop.Example:443' })).status).toBe(200);

    const cases: Array<[Record<string, string>, string]> = [
      [{ origin: 'https://evil.example' }, 'origin_not_allowed'],
      [{ origin: 'null' }, 'origin_invalid'],
      [{ origin: '' }, 'origin_required'],
    ];
    for (const [h, code] of cases) {
      const res = await svc.api('GET', '/api/sdk/placement?pathname=/checkout', { headers: { 'x-project-key': o.project.public_key, ...h } });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code, retryable: false, action: expect.any(String), error: expect.any(String) });
      const study = (await o.call('GET', `/studies/${studyRef}`)).body.study;
      expect(study.origin_guard_failure).toMatchObject({ code, allowed_origins: [SHOP], session_id: null, policy_source: 'study.allowed_origins' });
    }
    const study = (await o.call('GET', `/studies/${studyRef}`)).body.study;
    expect(study.origin_guard_failure.request_origin).toBeNull();

    const before = (await o.call('GET', '/sessions')).body;
    const refused = await sdk('POST', '/api/sdk/sessions', { study_id: studyRef }, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('origin_not_allowed');
    expect((await o.call('GET', '/sessions')).body.total ?? (await o.call('GET', '/sessions')).body.sessions.length).toBe(before.total ?? before.sessions.length);
    // The service's own pages (demo, recording launch) are always allowed.
    expect((await sdk('GET', '/api/sdk/placement?pathname=/checkout', undefined, { origin: svc.url })).status).toBe(200);
  });

  it('answers CORS preflights for the widget\'s headers', async () => {
    const res = await fetch(`${svc.url}/api/sdk/sessions`, {
      method: 'OPTIONS',
      headers: { origin: SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-project-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(res.headers.get('access-control-allow-headers')).toContain('x-project-key');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('SDK interview routes', () => {
  it('records consent with the copy version, and declining abandons the interview', async () => {
    const id = await session();
    const detail = await o.call('GET', `/sessions/${id}`);
    expect(detail.body.session).toMatchObject({ consent_recording: true, consent_data_use: true, consent_version: '2026-11' });
    expect(detail.body.session.events.find((e: any) => e.event_type === 'consent').data).toMatchObject({ consent_version: '2026-11' });
    const bad = await sdk('POST', `/api/sdk/sessions/${id}/consent`, { consent_recording: true, consent_data_use: 'yes', consent_version: 'v' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('consent_data_use');
    const declined = await session({ consent_recording: false, consent_data_use: false, consent_version: '2026-11' });
    expect((await o.call('GET', `/sessions/${declined}`)).body.session.status).toBe('abandoned');
    expect((await sdk('POST', `/api/sdk/sessions/${declined}/consent`, { consent_recording: true, consent_data_use: true, consent_version: 'x' })).body.code).toBe('session_ended');
  });

  it('issues runtime tokens bound to the interview and refuses other projects\' interviews', async () => {
    const id = await session();
    const t = await sdk('POST', `/api/sdk/sessions/${id}/runtime-token`);
    expect(t.status).toBe(200);
    expect(t.body.expires_in).toBe(600);
    expect(Date.parse(t.body.expires_at) - Date.now()).toBeLessThanOrEqual(600_000);
    const other = await ownerWithProject(svc, 'sdk-other@example.com', 'Other');
    const foreign = await svc.api('POST', `/api/sdk/sessions/${id}/runtime-token`, { headers: { 'x-project-key': other.project.public_key, origin: SHOP } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('session_not_found');
    expect((await svc.api('POST', `/api/sdk/sessions/${id}/runtime-token`, { token: o.token })).body.code).toBe('sdk_key_required');
  });

  it('limits runtime tokens to 20 a minute per IP', async () => {
    const id = await session();
    for (let i = 0; i < 20; i++) expect((await sdk('POST', `/api/sdk/sessions/${id}/runtime-token`)).status).toBe(200);
    const over = await sdk('POST', `/api/sdk/sessions/${id}/runtime-token`);
    expect(over.status).toBe(429);
    expect(over.headers.get('ratelimit-limit')).toBe('20');
  });

  it('keeps the latest recording-health beacon and adds status changes to the timeline', async () => {
    const id = await session();
    const beacon = (body: unknown) => sdk('POST', `/api/sdk/sessions/${id}/recording-health`, body);
    expect((await beacon({ status: 'recording', microphone: 'ok', screen: 'ok', chunks_sent: 1 })).status).toBe(200);
    expect((await beacon({ status: 'recording', microphone: 'ok', screen: 'ok', chunks_sent: 2 })).status).toBe(200);
    const degraded = await beacon({ status: 'degraded', microphone: 'muted', chunks_failed: 1, message: 'Microphone muted' });
    expect(degraded.body.recording_health).toMatchObject({ status: 'degraded', microphone: 'muted', screen: null, chunks_failed: 1 });
    expect((await beacon({ status: 'exploded' })).status).toBe(400);
    const events = (await o.call('GET', `/sessions/${id}`)).body.session.events.filter((e: any) => e.event_type === 'recording_health');
    expect(events.map((e: any) => e.data.status)).toEqual(['recording', 'degraded']);
  });

  it('takes audio chunks up to 10 MB after recording consent, replacing a resent index', async () => {
    const id = await session();
    const wav = await speech('This is a recorded chunk.', 'chunk');
    const up = (fields: Record<string, any>, extra: Record<string, string> = {}) =>
      fetch(`${svc.url}/api/sdk/audio/upload`, { method: 'POST', headers: headers(extra), body: form(fields) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const first = await up({ session_id: id, chunk_index: '0', audio: { file: wav, type: 'audio/wav' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ session_id: id, chunk_index: 0 });
    expect((await up({ session_id: id, chunk_index: '0', audio: { file: wav, type: 'audio/wav' } })).status).toBe(201);
    expect((await up({ session_id: id, chunk_index: '1', audio: { file: wav, type: 'audio/wav' } })).status).toBe(201);
    const chunks = (await o.call('GET', `/sessions/${id}`)).body.session.chunks;
    expect(chunks.map((c: any) => c.chunk_index)).toEqual([0, 1]);
    const big = await up({ session_id: id, chunk_index: '2', audio: { buffer: Buffer.concat([fs.readFileSync(wav).subarray(0, 44), Buffer.alloc(10 * 1024 * 1024)]), filename: 'big.wav', type: 'audio/wav' } });
    expect(big.status).toBe(413);
    const notAudio = await up({ session_id: id, chunk_index: '3', audio: { buffer: Buffer.from('hello there, not audio'), filename: 'a.wav' } });
    expect(notAudio.status).toBe(415);
    const noConsent = await session({ consent_recording: false, consent_data_use: true, consent_version: 'v1' });
    expect((await up({ session_id: noConsent, chunk_index: '0', audio: { file: wav, type: 'audio/wav' } })).body.code).toBe('consent_required');
  });

  it('refuses an interview\'s 501st chunk in 24 hours', async () => {
    const id = await session();
    await svc.services.db.pool.query(
      `INSERT INTO media_chunks (id, interview_id, type, chunk_index, storage_key, mime_type, size, created_at)
       SELECT 'chk_fill_' || i, $1, 'audio', i + 10, 'none', 'audio/wav', 1, now() - interval '2 hours' FROM generate_series(1, 500) i`,
      [id],
    );
    const wav = await speech('One more.', 'more');
    const res = await fetch(`${svc.url}/api/sdk/audio/upload`, { method: 'POST', headers: headers(), body: form({ session_id: id, chunk_index: '0', audio: { file: wav, type: 'audio/wav' } }) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).code).toBe('chunk_limit_reached');
  });

  it('runs a screen upload session: start, binary parts with etags, finalize into one recording', async () => {
    const id = await session();
    const video = webm(2);
    const start = await sdk('POST', '/api/sdk/screen/upload-session/start', { session_id: id });
    expect(start.status).toBe(200);
    expect((await sdk('POST', '/api/sdk/screen/upload-session/start', { session_id: id })).body.upload_session_id).toBe(start.body.upload_session_id);
    const half = Math.floor(video.length / 2);
    const part = (n: string, bytes: Buffer, extra: Record<string, string> = {}) =>
      fetch(`${svc.url}/api/sdk/screen/upload-session/upload-part`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/octet-stream', 'x-session-id': id, 'x-part-number': n, ...extra }),
        body: bytes,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const p1 = await part('1', video.subarray(0, half));
    expect(p1.status).toBe(200);
    expect(p1.body).toEqual({ part_number: 1, etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) });
    // A part sent again replaces the first try, whose stored bytes go.
    expect((await part('2', Buffer.from('a first try that the next send replaces'))).status).toBe(200);
    const firstTry = (await svc.services.db.pool.query(`SELECT storage_key FROM media_chunks WHERE interview_id = $1 AND chunk_index = 2`, [id])).rows[0].storage_key;
    const p2 = await part('2', video.subarray(half));
    expect(await svc.services.storage.head(firstTry)).toBeNull();
    expect(p2.body.part_number).toBe(2);
    expect((await part('0', video)).status).toBe(400);
    expect((await part('3', video, { 'content-type': 'application/json' })).status).toBe(415);
    expect((await part('3', Buffer.alloc(25 * 1024 * 1024 + 1))).status).toBe(413);
    // While the parts are being joined, more parts and a new upload wait.
    await svc.services.db.pool.query(`UPDATE screen_upload_sessions SET status = 'joining' WHERE interview_id = $1`, [id]);
    expect((await part('3', video)).body).toMatchObject({ code: 'upload_finalizing', retryable: true });
    expect((await sdk('POST', '/api/sdk/screen/upload-session/start', { session_id: id })).status).toBe(409);
    await svc.services.db.pool.query(`UPDATE screen_upload_sessions SET status = 'open' WHERE interview_id = $1`, [id]);
    const fin = await sdk('POST', '/api/sdk/screen/upload-session/finalize', { session_id: id });
    expect(fin.status).toBe(200);
    expect(fin.body.storage_key).toMatch(/screen-recording\.webm$/);
    expect((await sdk('POST', '/api/sdk/screen/upload-session/finalize', { session_id: id })).body.storage_key).toBe(fin.body.storage_key);
    const stored = await svc.services.storage.get(fin.body.storage_key);
    const bytes: Buffer[] = [];
    for await (const c of stored) bytes.push(c as Buffer);
    expect(Buffer.concat(bytes).equals(video)).toBe(true);
    const artifact = await o.call('GET', `/sessions/${id}/artifact/source-video`);
    expect(artifact.status).toBe(200);
    // A stranger's bytes are refused before anything is stored.
    const filesBefore = fs.readdirSync(svc.dataDir, { recursive: true }).length;
    expect((await part('1', Buffer.alloc(1024 * 1024), { 'x-project-key': 'pk_not_a_key' })).status).toBe(401);
    expect(fs.readdirSync(svc.dataDir, { recursive: true }).length).toBe(filesBefore);
    // Parts without an open upload are refused.
    expect((await part('1', video)).body.code).toBe('upload_session_not_found');
  });
});
