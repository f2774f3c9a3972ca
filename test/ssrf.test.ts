import dns from 'node:dns/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, postForm, settled, validInvitation, visibility } from './helpers/fixtures.ts';
import { openConductor } from './helpers/conductor.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';
import { form } from './helpers/media.ts';
import { addressAllowed } from '../core/safe-fetch.ts';

/**
 * A project's openai_base_url is a user's choice: every call to it (the key probe, extraction,
 * transcription, the model interviewer, voice) goes through the SSRF guard. The fake provider
 * listens on loopback and counts requests, so "refused" means it was never reached.
 */
const KEY = 'sk-ssrf-test-key-0001';
const SHOP = 'http://shop.example';
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let ai: FakeOpenAI;
let projectId: string;
/** Names (not literals) that resolve to internal addresses: localhost, and this machine's own name when it resolves privately. */
const internalNames: string[] = ['localhost'];

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on', CONDUCTOR_GRACE_SECONDS: '1' } });
  o = await ownerWithProject(svc, 'ssrf@example.com');
  ai = await fakeOpenAI(KEY);
  projectId = (await svc.services.db.pool.query('SELECT id FROM projects WHERE public_key = $1', [o.project.public_key])).rows[0].id;
  const own = await dns.lookup(os.hostname()).catch(() => null);
  if (own && !addressAllowed(own.address) && own.address !== '127.0.0.1') internalNames.push(os.hostname());
});
afterAll(async () => {
  await svc?.stop();
  await ai?.close();
});

const port = () => new URL(ai.url).port;
const viaName = (name: string) => `http://${name}:${port()}/v1`;

/** Stores a base URL as an older version (before the write-time check) could have. */
async function storeBaseUrl(url: string) {
  await svc.services.db.pool.query(`DELETE FROM project_settings WHERE project_id = $1 AND key = 'openai_base_url'`, [projectId]);
  await svc.services.db.pool.query(`INSERT INTO project_settings (project_id, key, value) VALUES ($1, 'openai_base_url', $2)`, [projectId, url]);
}

/** Every address the guard must refuse: loopback literal, the metadata address, and internal names. */
const targets = () => [`http://127.0.0.1:${port()}/v1`, 'http://169.254.169.254/latest', ...internalNames.map(viaName)];

describe('the SSRF guard on a project model address', () => {
  it('refuses literal internal addresses when the setting is written, naming the field', async () => {
    for (const url of ['http://169.254.169.254/latest', 'http://10.0.0.5/v1', 'http://[fd00::1]/v1', 'http://192.168.1.1:8080', 'http://0.0.0.0/v1']) {
      const res = await o.call('PATCH', '/settings', { openai_base_url: url });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatch(/openai_base_url: must be a public address/);
    }
    const checked = await o.call('POST', '/settings/validate', { key: 'openai_base_url', value: 'http://169.254.169.254/' });
    expect(checked.body).toMatchObject({ valid: false, errors: [expect.stringMatching(/public address/)] });
  });

  it('probes a key only at a public address, with one answer for every failure', async () => {
    await o.call('PATCH', '/settings', { openai_api_key: KEY });
    for (const url of targets()) {
      await storeBaseUrl(url);
      const live = await o.call('POST', '/settings/validate', { key: 'openai_api_key', value: KEY, live: true });
      expect(live.body, url).toMatchObject({ valid: false, live_check: { ok: false, status: null, message: 'The provider did not accept the key at this address' } });
      const health = await o.call('GET', '/settings/key-health?check=true');
      expect(health.body.keys[0].last_error).toBe('The provider did not accept the key at this address');
    }
    // A name nobody answers and a wrong key read the same: the probe is no oracle.
    await storeBaseUrl('http://no-such-host.invalid/v1');
    const missing = await o.call('POST', '/settings/validate', { key: 'openai_api_key', value: KEY, live: true });
    expect(missing.body.live_check).toEqual({ ok: false, status: null, message: 'The provider did not accept the key at this address' });
    expect(ai.calls).toEqual([]);
  });

  it('never sends the transcript to an internal extraction address, and says why', async () => {
    for (const url of targets()) {
      await storeBaseUrl(url);
      const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.from('Interviewer: How was it?\nKim: I could not find the export button.\n'), filename: 'call.txt', type: 'text/plain' } }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const status = await settled(o.call, res.body.session.id);
      expect(status, url).toMatchObject({ status: 'failed', current_step: 'extracting', error_code: 'extraction_address_not_allowed', retryable: false, action: expect.stringContaining('openai_base_url') });
    }
    expect(ai.calls).toEqual([]);
  });

  it('never uploads audio to an internal transcription address, and says why', async () => {
    for (const url of targets()) {
      await storeBaseUrl(url);
      const res = await postForm(svc, o.token, `${o.P}/sessions/upload-video`, form({ audio: { buffer: toneWav(2), filename: 'call.wav', type: 'audio/wav' } }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const status = await settled(o.call, res.body.session.id);
      expect(status, url).toMatchObject({ status: 'failed', current_step: 'transcribing', error_code: 'transcription_address_not_allowed', retryable: false });
    }
    expect(ai.calls).toEqual([]);
  });

  it('keeps the model interviewer and voice off internal addresses: the built-in interviewer asks, voice says why', async () => {
    const script = {
      version: 2,
      goals: [{ id: 'g1', description: 'Understand exporting' }],
      segments: [{ id: 'ask', mode: 'talk', title: 'Exporting', instruction: 'Ask about the last time they exported a report.' }],
    };
    const study = await o.call('POST', '/studies', { title: 'SSRF study', status: 'active', goals: script.goals, script, invitation: validInvitation, visibility: visibility([['include', 'subtree', '/ssrf']]), allowed_origins: [SHOP] });
    expect(study.status, JSON.stringify(study.body)).toBe(201);
    const sdk = (method: string, path: string, body?: unknown) => svc.api(method, path, { body, headers: { 'x-project-key': o.project.public_key, origin: SHOP } });
    for (const url of targets()) {
      await storeBaseUrl(url);
      const created = await sdk('POST', '/api/sdk/sessions', { study_id: study.body.study.ref, interview_mode: 'text', participant_name: 'Ada' });
      const id = created.body.session.id as string;
      await sdk('POST', `/api/sdk/sessions/${id}/consent`, { consent_recording: false, consent_data_use: true, consent_version: '2026-11' });
      const start = await sdk('POST', `/api/sdk/conductor/${id}/start`, {});
      expect(start.status, JSON.stringify(start.body)).toBe(200);
      const c = await openConductor(start.body.ws_url, { origin: SHOP });
      expect(await c.next((f) => f.type === 'message' && f.kind === 'ask')).toMatchObject({ segment_id: 'ask', text: expect.stringContaining('exported a report') });
      await c.close();
      for (const path of ['sts-secret', 'transcription-secret']) {
        const voice = await sdk('POST', `/api/sdk/conductor/${id}/${path}`);
        expect(voice.status, url).toBe(503);
        expect(voice.body).toMatchObject({ code: 'voice_unavailable', retryable: false, action: expect.stringContaining('openai_base_url') });
      }
      await svc.services.db.pool.query('DELETE FROM rate_limit_hits');
    }
    expect(ai.calls).toEqual([]);
  });

  it('reaches loopback only where the operator allows it (OUTBOUND_ALLOW_LOOPBACK)', async () => {
    const local = await startTestService({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true' } });
    try {
      const lo = await ownerWithProject(local, 'ssrf-loopback@example.com');
      await lo.call('PATCH', '/settings', { openai_base_url: viaName('localhost') });
      const live = await lo.call('POST', '/settings/validate', { key: 'openai_api_key', value: KEY, live: true });
      expect(live.body).toMatchObject({ valid: true, live_check: { ok: true, status: 200 } });
      expect(ai.calls.map((c) => c.path)).toEqual(['/models']);
      // Still never link-local or private, even then.
      expect((await lo.call('PATCH', '/settings', { openai_base_url: 'http://169.254.169.254/' })).status).toBe(400);
    } finally {
      await local.stop();
    }
  });
});

/** A mono 16-bit PCM WAV with a 440 Hz tone. */
function toneWav(seconds: number): Buffer {
  const rate = 16_000;
  const samples = rate * seconds;
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVEfmt ', 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) buf.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return buf;
}

describe('names that resolve to private addresses', () => {
  it('refuses at connect time when any DNS answer is internal (a rebinding name)', async () => {
    const { guardedFetch } = await import('../core/safe-fetch.ts');
    const { default: nodeDns } = await import('node:dns');
    const { vi } = await import('vitest');
    // The resolver is the one thing faked: no DNS server here can answer a public name with a private address.
    const spy = vi.spyOn(nodeDns, 'lookup').mockImplementation(((_host: string, _opts: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) =>
      cb(null, [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.5', family: 4 }])) as never);
    try {
      await expect(guardedFetch('http://models.example.com/v1/models', {}, { allowLoopback: true })).rejects.toMatchObject({ code: 'url_not_allowed', message: expect.stringContaining('models.example.com resolves to an internal address') });
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
