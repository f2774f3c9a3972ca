import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './setup/global.ts';
import { runCli, runCliToEnd, type Spawned } from './helpers/process.ts';
import { TEST_ENCRYPTION_KEY, cloneDatabase } from './helpers/service.ts';

/**
 * Issue 17: each API process caches who may do what (verified tokens, sessions, memberships)
 * and evidence totals, and keeps evidence list answers per evidence version. Two server processes on one database, started as a user does: whatever
 * is written through A is seen through B on the very next request, and nothing cached for one
 * person answers another.
 */
const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-cache-'));
const running: Spawned[] = [];
let env: Record<string, string>;
let a: string;
let b: string;

async function apiProcess(): Promise<string> {
  const port = await freePort();
  const p = runCli(['start'], { ...env, PORT: String(port), WORKER: 'off' });
  running.push(p);
  await p.waitFor(/Verbatim is running/);
  return `http://127.0.0.1:${port}`;
}

/**
 * Stops the Postgres backend that delivers change notifications to process B, so B hears
 * nothing until `resume` (what a busy listener looks like under load, made certain), and
 * resumes it `afterMs` later whatever the test does meanwhile.
 */
async function deafenB(afterMs: number): Promise<{ backend: number; resumed: Promise<void> }> {
  const listeners = await listenersOfB();
  expect(listeners).toHaveLength(1);
  const [backend] = listeners;
  process.kill(backend, 'SIGSTOP');
  return { backend, resumed: new Promise((resolve) => setTimeout(() => resolve(process.kill(backend, 'SIGCONT') && undefined), afterMs)) };
}

/** The Postgres backends listening for process B. */
async function listenersOfB(): Promise<number[]> {
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [`verbatim change feed ${running[1].child.pid}`]);
  await db.end();
  return rows.map((r) => r.pid);
}

async function login(email: string): Promise<{ token: string; org_handle: string }> {
  const out = await runCliToEnd(['login', '--email', email], env);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

async function api(base: string, token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(base + url, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  fs.chmodSync(shared, 0o755);
  env = { DATABASE_URL: await cloneDatabase(), DATA_DIR: shared, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
  [a, b] = await Promise.all([apiProcess(), apiProcess()]);
}, 120_000);

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  fs.rmSync(shared, { recursive: true, force: true });
});

describe('two API processes with caches on one database', () => {
  it('refuses a removed member, a demoted admin and a signed-out session through the other process at once', { timeout: 60_000 }, async () => {
    const owner = await login('cache-owner@example.com');
    const member = await login('cache-member@example.com');
    const org = owner.org_handle;
    const P = `/api/orgs/${org}/projects/cached`;
    expect((await api(a, owner.token, 'POST', `/api/orgs/${org}/projects`, { name: 'Cached' })).status).toBe(201);
    const added = await api(a, owner.token, 'POST', `/api/orgs/${org}/members`, { email: 'cache-member@example.com', role: 'admin' });
    expect(added.status).toBe(201);
    const memberId = added.body.member.user_id;

    // B learns (and caches) the member's token, session and admin membership.
    for (let i = 0; i < 3; i++) expect((await api(b, member.token, 'GET', P)).status).toBe(200);
    expect((await api(b, member.token, 'PATCH', P, { description: 'Set by the admin' })).status).toBe(200);

    // Demoted through A: B refuses the admin-only write on the next request.
    expect((await api(a, owner.token, 'PATCH', `/api/orgs/${org}/members/${memberId}`, { role: 'member' })).status).toBe(200);
    const demoted = await api(b, member.token, 'PATCH', P, { description: 'Set by a member' });
    expect(demoted.status).toBe(403);
    expect(demoted.body.code).toBe('role_required');

    // Removed through A: B answers as if the org did not exist.
    expect((await api(a, owner.token, 'DELETE', `/api/orgs/${org}/members/${memberId}`)).status).toBe(200);
    const removed = await api(b, member.token, 'GET', P);
    expect(removed.status).toBe(404);

    // The owner signs out through A: the same token is refused by B at once.
    expect((await api(b, owner.token, 'GET', P)).status).toBe(200);
    expect((await api(a, owner.token, 'POST', '/api/auth/logout')).status).toBe(200);
    const signedOut = await api(b, owner.token, 'GET', P);
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.code).toBe('session_revoked');
  });

  it('refuses a signed-out session and serves a write through B even while B has not heard the change', { timeout: 60_000 }, async () => {
    const owner = await login('cache-deaf@example.com');
    const org = owner.org_handle;
    const P = `/api/orgs/${org}/projects/deaf`;
    expect((await api(a, owner.token, 'POST', `/api/orgs/${org}/projects`, { name: 'Deaf' })).status).toBe(201);
    expect((await api(b, owner.token, 'GET', P)).body.project.description).toBeNull();

    let deaf = await deafenB(500);
    expect((await api(a, owner.token, 'PATCH', P, { description: 'Written while B was deaf' })).status).toBe(200);
    expect((await api(b, owner.token, 'GET', P)).body.project.description).toBe('Written while B was deaf');
    await deaf.resumed;

    expect((await api(b, owner.token, 'GET', P)).status).toBe(200);
    deaf = await deafenB(500);
    expect((await api(a, owner.token, 'POST', '/api/auth/logout')).status).toBe(200);
    const signedOut = await api(b, owner.token, 'GET', P);
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.code).toBe('session_revoked');
    await deaf.resumed;
  });

  it('answers from the database when its change feed stops answering, and listens again after', { timeout: 60_000 }, async () => {
    const owner = await login('cache-stuck@example.com');
    const org = owner.org_handle;
    const P = `/api/orgs/${org}/projects/stuck`;
    expect((await api(a, owner.token, 'POST', `/api/orgs/${org}/projects`, { name: 'Stuck' })).status).toBe(201);
    expect((await api(b, owner.token, 'GET', P)).status).toBe(200);

    const stuck = await deafenB(8_000);
    expect((await api(a, owner.token, 'PATCH', P, { description: 'Written while B was stuck' })).status).toBe(200);
    expect((await api(b, owner.token, 'GET', P)).body.project.description).toBe('Written while B was stuck');
    expect(running[1].stderr() + running[1].stdout()).toContain('change feed lost');
    await stuck.resumed;

    // A new listener serves B's caches again: a later write is seen at once.
    await expect.poll(listenersOfB, { timeout: 10_000 }).toSatisfy((pids: number[]) => pids.length === 1 && pids[0] !== stuck.backend);
    expect((await api(a, owner.token, 'PATCH', P, { description: 'Written after' })).status).toBe(200);
    expect((await api(b, owner.token, 'GET', P)).body.project.description).toBe('Written after');
  });

  it('serves writes through A at once through B, and never one person\'s cached access to another', { timeout: 60_000 }, async () => {
    const owner = await login('cache-writer@example.com');
    const stranger = await login('cache-stranger@example.com');
    const org = owner.org_handle;
    const P = `/api/orgs/${org}/projects/written`;
    expect((await api(a, owner.token, 'POST', `/api/orgs/${org}/projects`, { name: 'Written' })).status).toBe(201);
    const imported = new FormData();
    imported.set('transcript', new Blob(['Interviewer: How was it?\nParticipant: Fine.'], { type: 'text/plain' }), 't.txt');
    const res = await fetch(`${a}${P}/sessions/import-transcript`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: imported });
    expect(res.status).toBe(201);
    const sessionId = ((await res.json()) as any).session.id;

    // Warm B's caches: the project, and the evidence total of an empty list.
    expect((await api(b, owner.token, 'GET', P)).body.project.description).toBeNull();
    expect((await api(b, owner.token, 'GET', `${P}/signals?type=workaround`)).body).toMatchObject({ signals: [], total: 0, next_cursor: null });

    expect((await api(a, owner.token, 'PATCH', P, { description: 'Written through A' })).status).toBe(200);
    expect((await api(b, owner.token, 'GET', P)).body.project.description).toBe('Written through A');

    const card = await api(a, owner.token, 'POST', `${P}/sessions/${sessionId}/signals`, { signal_type: 'workaround', quote: 'Fine.' });
    expect(card.status).toBe(201);
    const listed = (await api(b, owner.token, 'GET', `${P}/signals?type=workaround`)).body;
    expect(listed.total).toBe(1);
    expect(listed.signals.map((s: any) => s.quote)).toEqual(['Fine.']);
    expect((await api(a, owner.token, 'POST', `${P}/signals/${listed.signals[0].id}/dismiss`, { reason: 'Not evidence' })).status).toBe(200);
    expect((await api(b, owner.token, 'GET', `${P}/signals?type=workaround`)).body).toMatchObject({ signals: [], total: 0 });

    // Another person, on the process that has the owner's access cached, gets nothing.
    for (const base of [a, b]) {
      expect((await api(base, stranger.token, 'GET', P)).status).toBe(404);
      expect((await api(base, stranger.token, 'GET', `${P}/signals`)).status).toBe(404);
    }
  });
});
