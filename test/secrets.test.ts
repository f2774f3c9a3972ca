import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.ts';
import { startService, type RunningService } from '../core/service.ts';
import { ensureUser } from '../tools/account/users.ts';
import { inTransaction } from '../core/tx.ts';
import { keyIdOf, parseKey } from '../auth/secret-box.ts';
import { TEST_ENCRYPTION_KEY, cloneDatabase } from './helpers/service.ts';
import { refusedStart } from './helpers/refused.ts';
import { form, video } from './helpers/media.ts';
import { settled, validInvitation, validScript, visibility } from './helpers/fixtures.ts';

/** Encryption keys at start: malformed keys refuse, keys the database does not know refuse, rotation re-seals. */
const K1 = TEST_ENCRYPTION_KEY;
const K2 = 'b'.repeat(64);
const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-secrets-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('malformed keys refuse start', () => {
  it('refuses a malformed ENCRYPTION_KEY or ENCRYPTION_KEYS_PREVIOUS entry, naming the variable', async () => {
    const databaseUrl = await cloneDatabase();
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: tempDir() };
    expect(await refusedStart({ ...env, ENCRYPTION_KEY: 'too-short' })).toMatch(/ENCRYPTION_KEY is not 32 bytes written as 64 hex characters or base64/);
    expect(await refusedStart({ ...env, ENCRYPTION_KEY: K1, ENCRYPTION_KEYS_PREVIOUS: `${K2},nope` })).toMatch(/ENCRYPTION_KEYS_PREVIOUS: entry 2 is not 32 bytes/);
  });

  it('never replaces a malformed key file: start fails and the file is left as it was', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'encryption.key');
    fs.writeFileSync(file, 'this is not a key\n');
    const stderr = await refusedStart({ DATABASE_URL: await cloneDatabase(), DATA_DIR: dataDir });
    expect(stderr).toContain(`${file} does not hold a valid key`);
    expect(stderr).toMatch(/Restore the file from a backup, or set ENCRYPTION_KEY/);
    expect(fs.readFileSync(file, 'utf8')).toBe('this is not a key\n');
  });
});

describe('keys against the database', () => {
  const databaseUrl = cloneDatabase();
  const dataDir = tempDir();
  const start = async (env: Record<string, string>) =>
    startService(loadConfig({ NODE_ENV: 'test', DATABASE_URL: await databaseUrl, DATA_DIR: dataDir, PORT: '0', WORKER: 'off', LOG_LEVEL: 'silent', ...env }));
  const canaryKeyId = async (svc: RunningService) => {
    const { rows } = await svc.services.db.pool.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'encryption_canary'`);
    return JSON.parse(rows[0].value).keyId as string;
  };
  const api = async (svc: RunningService, token: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(svc.url + url, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const health = async (svc: RunningService) => (await fetch(`${svc.url}/api/health`)).json() as Promise<any>;
  const owner = async (svc: RunningService) => {
    const { db, tokens } = svc.services;
    const user = await inTransaction(db.pool, (sql) => ensureUser({ email: 'keys@example.com', name: null }, sql));
    const org = (await db.pool.query<{ handle: string }>('SELECT handle FROM organizations WHERE id = $1', [user.personal_org_id])).rows[0];
    return { token: (await tokens.issue(user.id, 'test')).token, orgHandle: org!.handle, P: `/api/orgs/${org!.handle}/projects/keys` };
  };

  it('refuses another key, opens with the old one in ENCRYPTION_KEYS_PREVIOUS and re-seals, and shows secrets it cannot open', async () => {
    // The first process seals the check value and a project's model key with K1.
    const first = await start({ ENCRYPTION_KEY: K1 });
    const o = await owner(first);
    expect((await api(first, o.token, 'POST', `/api/orgs/${o.orgHandle}/projects`, { name: 'Keys' })).status).toBe(201);
    expect((await api(first, o.token, 'PATCH', `${o.P}/settings`, { openai_api_key: 'sk-sealed-with-the-first-key' })).status).toBe(200);
    expect(await canaryKeyId(first)).toBe(keyIdOf(parseKey(K1)!));
    expect((await health(first)).checks.encryption_key).toBe(true);
    await first.stop();

    // Another key alone is refused, naming both fixes.
    const refused = await start({ ENCRYPTION_KEY: K2 }).then(() => null, (err: Error) => err.message);
    expect(refused).toMatch(/ENCRYPTION_KEY is not the encryption key of this database/);
    expect(refused).toMatch(/same ENCRYPTION_KEY.*ENCRYPTION_KEYS_PREVIOUS/);

    // With the old key as previous it starts, and the check value moves to the new key.
    const rotated = await start({ ENCRYPTION_KEY: K2, ENCRYPTION_KEYS_PREVIOUS: K1 });
    expect(await canaryKeyId(rotated)).toBe(keyIdOf(parseKey(K2)!));
    expect((await health(rotated)).checks.encryption_key).toBe(true);
    await rotated.stop();
    expect(await start({ ENCRYPTION_KEY: K1 }).then(() => null, (err: Error) => err.message)).toMatch(/not the encryption key of this database/);

    // Dropping the previous key too early: the process starts, but says it cannot open the project's key.
    const dropped = await start({ ENCRYPTION_KEY: K2, WORKER: 'on' });
    try {
      expect(await health(dropped)).toMatchObject({ status: 'degraded', checks: { encryption_key: false, database: true } });
      const settings = (await api(dropped, o.token, 'GET', `${o.P}/settings`)).body;
      expect(settings.warnings).toContainEqual(expect.objectContaining({ code: 'secret_unreadable' }));

      const transcript = new URL('./fixtures/transcripts/groceries.txt', import.meta.url).pathname;
      const res = await fetch(`${dropped.url}${o.P}/sessions/import-transcript`, { method: 'POST', headers: { authorization: `Bearer ${o.token}` }, body: form({ transcript: { file: transcript, filename: 'g.txt', type: 'text/plain' } }) });
      expect(res.status).toBe(201);
      const id = ((await res.json()) as any).session.id;
      const done = await settled((method, url) => api(dropped, o.token, method, `${o.P}${url}`), id);
      expect(done.status).toBe('processed');
      expect(done.warnings).toEqual([
        {
          step: 'extracting',
          code: 'model_key_unreadable',
          message: expect.stringMatching(/openai_api_key is stored but this server cannot open it .*local extractor instead of the project's model/),
          action: expect.stringMatching(/ENCRYPTION_KEYS_PREVIOUS/),
        },
      ]);
      const signals = (await api(dropped, o.token, 'GET', `${o.P}/signals?session_id=${id}`)).body;
      expect(signals.signals.length).toBeGreaterThan(0);
      expect(new Set(signals.signals.map((s: any) => s.source))).toEqual(new Set(['pipeline:local']));

      // A recording needs the model to be transcribed: without another service it fails, saying why.
      const upload = await fetch(`${dropped.url}${o.P}/sessions/upload-video`, { method: 'POST', headers: { authorization: `Bearer ${o.token}` }, body: form({ video: { file: video('keys-1', 2), filename: 'v.mp4', type: 'video/mp4' } }) });
      expect(upload.status).toBe(201);
      const failed = await settled((method, url) => api(dropped, o.token, method, `${o.P}${url}`), ((await upload.json()) as any).session.id);
      expect(failed).toMatchObject({ status: 'failed', current_step: 'transcribing', error_code: 'model_key_unreadable', retryable: false, action: expect.stringMatching(/ENCRYPTION_KEY/) });
      expect(failed.error_message).toMatch(/cannot open it .*so the recording cannot be transcribed/);

      // Voice needs the project's model: it says the key does not open, not that none is configured.
      const sdk = (path: string, body: unknown) =>
        api(dropped, '', 'POST', path, body, { 'x-project-key': projectKey, origin: 'http://shop.example' });
      const projectKey = (await api(dropped, o.token, 'GET', o.P)).body.project.public_key as string;
      const study = await api(dropped, o.token, 'POST', `${o.P}/studies`, { title: 'Voice', status: 'active', goals: validScript.goals, script: validScript, invitation: validInvitation, visibility: visibility([['include', 'subtree', '/voice']]), allowed_origins: ['http://shop.example'] });
      expect(study.status, JSON.stringify(study.body)).toBe(201);
      const session = (await sdk('/api/sdk/sessions', { study_id: study.body.study.ref, interview_mode: 'text' })).body.session.id as string;
      await sdk(`/api/sdk/sessions/${session}/consent`, { consent_recording: true, consent_data_use: true, consent_version: '2026-11' });
      expect((await sdk(`/api/sdk/conductor/${session}/start`, {})).status).toBe(200);
      const voice = await sdk(`/api/sdk/conductor/${session}/sts-secret`, {});
      expect(voice.status).toBe(503);
      expect(voice.body).toMatchObject({ code: 'model_key_unreadable', retryable: false, error: expect.stringMatching(/cannot open it/), action: expect.stringMatching(/text.*ENCRYPTION_KEY/) });

      // Setting the key again seals it with the current key: health recovers, the warning goes with a new run.
      expect((await api(dropped, o.token, 'PATCH', `${o.P}/settings`, { openai_api_key: null })).status).toBe(200);
      expect((await health(dropped)).checks.encryption_key).toBe(true);
      expect((await api(dropped, o.token, 'POST', `${o.P}/sessions/${id}/reprocess`)).status).toBe(200);
      expect((await settled((method, url) => api(dropped, o.token, method, `${o.P}${url}`), id)).warnings).toEqual([]);
    } finally {
      await dropped.stop();
    }
  });

  it('on a database from before the check value, refuses a key that opens none of its secrets', async () => {
    const svc = await start({ ENCRYPTION_KEY: K2 });
    await svc.services.db.pool.query(`DELETE FROM server_secrets WHERE name = 'encryption_canary'`);
    await svc.services.db.pool.query(
      `INSERT INTO project_settings (project_id, key, ciphertext, key_id) SELECT id, 'openai_api_key', 'AAAA', $1 FROM projects LIMIT 1
       ON CONFLICT (project_id, key) DO UPDATE SET ciphertext = 'AAAA', value = NULL, key_id = $1`,
      [keyIdOf(parseKey(K2)!)],
    );
    await svc.stop();
    const refused = await start({ ENCRYPTION_KEY: K1 }).then(() => null, (err: Error) => err.message);
    expect(refused).toMatch(/ENCRYPTION_KEY opens none of the secrets stored in this database/);
    const ok = await start({ ENCRYPTION_KEY: K2 });
    await ok.stop();
  });
});
