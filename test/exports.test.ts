import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedInterview, ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { form, speech } from './helpers/media.ts';
import { sweepExpiredExports } from '../tools/exports/run.ts';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let other: Awaited<ReturnType<typeof ownerWithProject>>;
let importedId: string;
let uploadedId: string;

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  o = await ownerWithProject(svc, 'exporter@example.com', 'Checkout research');
  other = await ownerWithProject(svc, 'bystander@example.com', 'Bystander secrets');
  await importedInterview(svc, other, 'support.json');
  importedId = await importedInterview(svc, o, 'checkout.txt');
  const wav = await speech('The export button was hidden behind the settings menu.', 'export-audio');
  const upload = await postForm(svc, o.token, `${o.P}/sessions/upload-video`, form({ audio: { file: wav, filename: 'call.wav', type: 'audio/wav' }, participant_name: 'Ana' }));
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  uploadedId = upload.body.session.id;
  // Without a transcription model the upload stops at transcribing; its media is stored by then.
  await settled(o.call, uploadedId);
  const signals = (await o.call('GET', '/signals?limit=5')).body.signals;
  expect(signals.length).toBeGreaterThan(1);
  expect((await o.call('POST', '/findings/from-evidence', { title: 'Exports are hard to find', evidence_refs: [signals[0].id] })).status).toBe(201);
  expect((await o.call('POST', '/tasks/from-signals', { signal_ids: [signals[1].id] })).status).toBe(201);
}, 120_000);
afterAll(() => svc?.stop());

const user = (token: string) => ({
  post: () => svc.api('POST', '/api/user/data-exports', { token, body: {} }),
  get: (id: string) => svc.api('GET', `/api/user/data-exports/${id}`, { token }),
  download: (id: string) => svc.api('GET', `/api/user/data-exports/${id}/download`, { token }),
});

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 45_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const files = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

const json = (files: Map<string, Buffer>, name: string) => {
  const file = files.get(name);
  if (!file) throw new Error(`${name} is not in the archive: ${[...files.keys()].join(', ')}`);
  return JSON.parse(file.toString('utf8'));
};

let exportId: string;
let mediaUrl: string;

describe('data exports', () => {
  it('queues one export at a time and completes it with a download link', async () => {
    const me = user(o.token);
    const created = await me.post();
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body.media_url_ttl_seconds).toBe(7 * 24 * 3600);
    expect(created.body.job).toMatchObject({ id: expect.stringMatching(/^exp_/), download_url: null, error_message: null, completed_at: null, expires_at: expect.any(String) });
    expect(['queued', 'running']).toContain(created.body.job.status);
    exportId = created.body.job.id;
    const again = await me.post();
    if (['queued', 'running'].includes(again.body.job.status)) expect(again.body.job.id).toBe(exportId);

    const done = await until(() => me.get(exportId), (r) => r.body.job.status === 'completed' || r.body.job.status === 'failed');
    expect(done.status).toBe(200);
    expect(Object.keys(done.body).sort()).toEqual(['job', 'media_url_ttl_seconds']);
    expect(done.body.job).toMatchObject({ status: 'completed', started_at: expect.any(String), completed_at: expect.any(String), download_url: expect.stringContaining('sig='), error_message: null, progress: { percent: 100, projects_done: 1, projects_total: 1 } });
    expect(new Date(done.body.job.expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);

    const list = await svc.api('GET', '/api/user/data-exports', { token: o.token });
    expect(list.body.jobs.map((j: any) => j.id)).toContain(exportId);
    expect(list.body.media_url_ttl_seconds).toBe(7 * 24 * 3600);
  });

  it('holds everything the user can see, lists media with working signed links, and nothing of other organizations', async () => {
    const link = await user(o.token).download(exportId);
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(link.body).toMatchObject({ filename: expect.stringMatching(/^verbatim-export-.*\.zip$/), size_bytes: expect.any(Number) });
    // A browser following the link lands on the file itself.
    const browser = await fetch(`${svc.url}/api/user/data-exports/${exportId}/download`, { headers: { authorization: `Bearer ${o.token}`, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, redirect: 'manual' });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toMatch(/sig=/);
    const res = await fetch(link.body.download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const zip = Buffer.from(await res.arrayBuffer());
    expect(zip.length).toBe(link.body.size_bytes);
    const files = await unzip(zip);

    const manifest = json(files, 'manifest.json');
    expect(manifest).toMatchObject({ export_id: exportId, user: { id: o.userId, email: 'exporter@example.com' }, media_url_ttl_seconds: 7 * 24 * 3600, generated_at: expect.any(String) });
    expect(manifest.counts).toMatchObject({ organizations: 1, projects: 1, interviews: 2, findings: 1, tasks: 1, studies: 1 });
    expect(manifest.counts.signals).toBeGreaterThan(1);
    expect(manifest.counts.media_files).toBeGreaterThan(0);
    expect(json(files, 'profile.json')).toMatchObject({ id: o.userId, email: 'exporter@example.com', personal_org_handle: o.orgHandle });
    expect(json(files, 'organizations.json')).toEqual([expect.objectContaining({ handle: o.orgHandle, role: 'owner', projects: [o.project.handle] })]);

    const dir = `projects/${o.orgHandle}/${o.project.handle}`;
    expect(json(files, `${dir}/project.json`)).toMatchObject({ ref: o.project.ref, name: 'Checkout research' });
    expect(json(files, `${dir}/studies.json`)).toHaveLength(1);
    expect(Array.isArray(json(files, `${dir}/intakes.json`))).toBe(true);
    const signals = json(files, `${dir}/signals.json`);
    expect(signals.length).toBe(manifest.counts.signals);
    expect(signals.every((s: any) => s.session_id === importedId || s.session_id === uploadedId)).toBe(true);
    const finding = json(files, `${dir}/findings.json`)[0];
    expect(finding).toMatchObject({ title: 'Exports are hard to find', evidence_count: 1, evidence_ids: [expect.any(String)] });
    expect(signals.map((s: any) => s.id)).toContain(finding.evidence_ids[0]);
    expect(json(files, `${dir}/tasks.json`)[0]).toMatchObject({ review_packet: true, evidence_ids: [expect.stringMatching(/^sig_/)] });

    const imported = json(files, `${dir}/interviews/${importedId}.json`);
    expect(imported.session).toMatchObject({ id: importedId, source: 'import', processing_status: 'processed' });
    expect(imported.transcript.length).toBeGreaterThan(3);
    expect(imported.transcript[0]).toMatchObject({ idx: 0, text: expect.any(String) });

    const uploaded = json(files, `${dir}/interviews/${uploadedId}.json`);
    expect(uploaded.session.participant_name).toBe('Ana');
    const audio = uploaded.media.find((m: any) => m.name === 'source-audio');
    expect(audio).toMatchObject({ available: true, mime_type: expect.stringMatching(/^audio\//), url: expect.stringContaining('sig='), expires_at: expect.any(String) });
    expect(Buffer.from(JSON.stringify(uploaded)).includes(Buffer.from('storage_key'))).toBe(false);
    mediaUrl = audio.url;
    const media = await fetch(mediaUrl);
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer()).subarray(0, 4).toString()).toBe('RIFF');

    const names = [...files.keys()];
    expect(names.some((n) => n.includes(other.orgHandle))).toBe(false);
    for (const content of files.values()) expect(content.includes(Buffer.from('Bystander secrets'))).toBe(false);
  });

  it("answers 404 for another user's export, on every route", async () => {
    const stranger = user(other.token);
    expect((await stranger.get(exportId)).status).toBe(404);
    expect((await stranger.download(exportId)).status).toBe(404);
    expect((await svc.api('GET', '/api/user/data-exports', { token: other.token })).body.jobs).toEqual([]);
    expect((await svc.api('GET', '/api/user/data-exports/exp_nope', { token: o.token })).status).toBe(404);
    expect((await svc.api('GET', `/api/user/data-exports/${exportId}`)).status).toBe(401);
  });

  it('refuses the download of an expired export (410) and the sweep deletes its archive', async () => {
    await svc.services.db.pool.query(`UPDATE data_exports SET expires_at = now() - interval '1 minute' WHERE id = $1`, [exportId]);
    const read = await user(o.token).get(exportId);
    expect(read.body.job).toMatchObject({ status: 'completed', download_url: null });
    const gone = await user(o.token).download(exportId);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ code: 'export_expired', action: expect.stringContaining('POST /api/user/data-exports') });
    const { rows } = await svc.services.db.pool.query(`SELECT storage_key FROM data_exports WHERE id = $1`, [exportId]);
    expect(await svc.services.storage.head(rows[0].storage_key)).not.toBeNull();
    expect(await sweepExpiredExports(svc.services)).toBe(1);
    expect(await svc.services.storage.head(rows[0].storage_key)).toBeNull();
  });

  it('marks an export failed when its archive cannot be stored, after retries', async () => {
    const storage = svc.services.storage;
    const put = storage.put.bind(storage);
    storage.put = async (key, body, type) => {
      if (key.startsWith('exports/')) throw new Error('disk full');
      return put(key, body, type);
    };
    try {
      const created = await user(o.token).post();
      expect(created.status).toBe(202);
      const id = created.body.job.id;
      expect(id).not.toBe(exportId);
      const failed = await until(() => user(o.token).get(id), (r) => r.body.job.status === 'failed', 60_000);
      expect(failed.body.job).toMatchObject({ download_url: null, error_message: expect.stringContaining('Request a new export') });
      expect(failed.body.job.error_message).not.toMatch(/disk full/);
      const refused = await user(o.token).download(id);
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('export_failed');
    } finally {
      delete (storage as Partial<typeof storage>).put;
    }
  }, 90_000);
});

describe('project purge', () => {
  it('is for owners only: a member gets 403 and nothing is deleted', async () => {
    const member = await svc.login('exporter-colleague@example.com');
    expect((await svc.api('POST', `/api/orgs/${o.orgHandle}/members`, { token: o.token, body: { email: 'exporter-colleague@example.com' } })).status).toBe(201);
    const res = await svc.api('POST', `${o.P}/purge`, { token: member.token, body: { confirm: o.project.handle } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('role_required');
    expect((await o.call('GET', '/sessions')).body.total).toBe(2);
  });

  it('refuses a wrong confirmation with 400 and deletes nothing', async () => {
    const res = await o.call('POST', '/purge', { confirm: 'not-the-handle' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'confirmation_mismatch', action: expect.stringContaining(o.project.handle) });
    expect((await o.call('POST', '/purge', {})).status).toBe(400);
    expect((await o.call('GET', '/sessions')).body.total).toBe(2);
    expect((await o.call('GET', '/signals')).body.total).toBeGreaterThan(1);
    expect((await fetch(mediaUrl)).status).toBe(200);
  });

  it('deletes the research data and its stored media, keeps the project, and touches no other project', async () => {
    const otherSignals = (await other.call('GET', '/signals')).body.total;
    const res = await o.call('POST', '/purge', { confirm: o.project.handle });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.dbRowsDeleted).toBeGreaterThan(10);
    expect(res.body.objectsDeleted).toBeGreaterThan(0);
    expect((await o.call('GET', '/sessions')).body).toMatchObject({ sessions: [], total: 0 });
    expect((await o.call('GET', '/signals')).body).toMatchObject({ signals: [], total: 0 });
    expect((await o.call('GET', '/findings')).body.findings).toEqual([]);
    expect((await o.call('GET', '/tasks')).body.tasks).toEqual([]);
    expect((await o.call('GET', '')).status).toBe(200);
    expect((await o.call('GET', '/studies')).body.studies).toHaveLength(1);
    expect((await fetch(mediaUrl)).status).toBe(404);
    const { rows } = await svc.services.db.pool.query(`SELECT count(*)::int AS n FROM transcript_segments t JOIN interviews i ON i.id = t.interview_id WHERE i.project_id = $1`, [o.project.ref]);
    expect(rows[0].n).toBe(0);
    expect((await other.call('GET', '/signals')).body.total).toBe(otherSignals);

    const again = await o.call('POST', '/purge', { confirm: o.project.handle });
    expect(again.body).toEqual({ success: true, dbRowsDeleted: 0, objectsDeleted: 0 });
  });
});
