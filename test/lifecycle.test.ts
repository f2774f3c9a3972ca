import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './setup/global.ts';
import { runCli, runCliToEnd, type Spawned } from './helpers/process.ts';
import { runningPostmaster } from '../core/embedded-postgres.ts';

/**
 * `npm start` as a user runs it: its own embedded Postgres in DATA_DIR, clean stop on
 * SIGINT, data reused on the next start, a stale Postgres detected after a kill.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-life-'));
fs.chmodSync(dataDir, 0o755);
let env: Record<string, string>;
let running: Spawned | null = null;

afterAll(async () => {
  running?.child.kill('SIGKILL');
  await runCliToEnd(['db-stop'], env);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}) {
  const p = runCli(['start'], { ...env, ...extra });
  await p.waitFor(/Verbatim is running/);
  return p;
}

describe('npm start', () => {
  it('starts everything on embedded Postgres, prints where, and stops cleanly on SIGINT', async () => {
    const port = await freePort();
    env = { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'warn' };
    delete process.env.DATABASE_URL;
    running = await start();
    const out = running.stdout();
    const base = `http://127.0.0.1:${port}`;
    expect(out).toContain(`Base URL   ${base}`);
    expect(out).toContain(`MCP        ${base}/mcp`);
    expect(out).toContain(`API docs   ${base}/api/docs`);
    expect(out).toContain('npm run --silent cli -- login --email');
    expect(running.stderr()).toMatch(/ENCRYPTION_KEY is not set: generated a local key/);
    expect(fs.existsSync(path.join(dataDir, 'encryption.key'))).toBe(true);

    const health = (await (await fetch(`${base}/api/health`)).json()) as { checks: unknown };
    expect(health.checks).toEqual({ encryption_key: true, database: true });

    // The CLI attaches to the server's Postgres while it runs.
    const login = await runCliToEnd(['login', '--email', 'first@example.com'], env);
    expect(login.code, login.stderr).toBe(0);
    const { token, user_id } = JSON.parse(login.stdout);
    expect((await fetch(`${base}/api/auth/session`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    // The worker in the same process takes jobs from the queue.
    const pgUrl = `postgres://postgres:${fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim()}@127.0.0.1:${env.EMBEDDED_PG_PORT}/verbatim`;
    const client = new pg.Client({ connectionString: pgUrl });
    client.on('error', () => {});
    await client.connect();
    await client.query(`INSERT INTO rate_limit_hits (key, window_start, hits) VALUES ('old', now() - interval '2 hours', 3), ('new', now(), 1)`);
    await client.query(`SELECT graphile_worker.add_job('prune_rate_limits', '{}'::json)`);
    let keys: string[] = [];
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      keys = (await client.query(`SELECT key FROM rate_limit_hits ORDER BY key`)).rows.map((r) => r.key);
      if (!keys.includes('old')) break;
    }
    expect(keys).toEqual(['new']);
    await client.end();

    running.child.kill('SIGINT');
    expect(await running.exited()).toBe(0);
    running = null;
    expect(runningPostmaster(path.join(dataDir, 'pg'))).toBeNull();
    expect(fs.existsSync(path.join(dataDir, 'server.pid'))).toBe(false);

    // A second start reuses the data: same user, same token key.
    running = await start();
    expect(running.stderr()).not.toMatch(/initialising embedded Postgres/);
    expect((await fetch(`${base}/api/auth/session`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const again = JSON.parse((await runCliToEnd(['login', '--email', 'first@example.com'], env)).stdout);
    expect(again.user_id).toBe(user_id);

    // A second server on the same data folder is refused.
    const twin = await runCliToEnd(['start'], { ...env, PORT: String(await freePort()) });
    expect(twin.code).toBe(1);
    expect(twin.stderr).toMatch(/already running/);

    running.child.kill('SIGTERM');
    expect(await running.exited()).toBe(0);
    running = null;
  });

  it('runs a worker alone beside a server started with WORKER=off', async () => {
    running = await start({ WORKER: 'off' });
    expect(running.stdout()).not.toMatch(/with its worker/);
    const pgUrl = `postgres://postgres:${fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim()}@127.0.0.1:${env.EMBEDDED_PG_PORT}/verbatim`;
    const client = new pg.Client({ connectionString: pgUrl });
    client.on('error', () => {});
    await client.connect();
    await client.query(`INSERT INTO rate_limit_hits (key, window_start, hits) VALUES ('stale', now() - interval '3 hours', 1)`);
    await client.query(`SELECT graphile_worker.add_job('prune_rate_limits', '{}'::json)`);
    await new Promise((r) => setTimeout(r, 1500));
    const waiting = await client.query(`SELECT count(*)::int AS n FROM rate_limit_hits WHERE key = 'stale'`);
    expect(waiting.rows[0].n).toBe(1);

    const worker = runCli(['worker'], env);
    await worker.waitFor(/worker running/);
    let left = 1;
    for (let i = 0; i < 100 && left; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = (await client.query(`SELECT count(*)::int AS n FROM rate_limit_hits WHERE key = 'stale'`)).rows[0].n;
    }
    expect(left).toBe(0);
    await client.end();
    worker.child.kill('SIGINT');
    expect(await worker.exited()).toBe(0);
    running.child.kill('SIGINT');
    expect(await running.exited()).toBe(0);
    running = null;
  });

  it('detects a Postgres left by a killed process and says what to do', async () => {
    running = await start({ WORKER: 'off' });
    running.child.kill('SIGKILL');
    await running.exited();
    running = null;
    expect(runningPostmaster(path.join(dataDir, 'pg'))).not.toBeNull();

    const stale = await runCliToEnd(['start'], env);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/still running/);
    expect(stale.stderr).toMatch(/npm run cli -- db-stop/);

    const stop = await runCliToEnd(['db-stop'], env);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(/Stopped embedded Postgres/);
    expect(runningPostmaster(path.join(dataDir, 'pg'))).toBeNull();

    running = await start();
    running.child.kill('SIGINT');
    expect(await running.exited()).toBe(0);
    running = null;
  });
});
