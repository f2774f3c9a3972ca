import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './setup/global.ts';
import { runCli, runCliToEnd, type Spawned } from './helpers/process.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { runningPostmaster } from '../core/embedded-postgres.ts';

describe('a stored object that cannot be read', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc?.stop();
  });

  const objectFile = (key: string) => path.join(svc.dataDir, 'storage', 'objects', key);
  /** A read error from storage: the object's file is now a folder, which opens but cannot be read. */
  const breakObject = (key: string) => {
    fs.rmSync(objectFile(key));
    fs.mkdirSync(objectFile(key));
  };

  it('answers its download with an error, and the server keeps serving', async () => {
    const storage = svc.services.storage;
    await storage.put('hygiene/a.txt', Buffer.from('first'), 'text/plain');
    await storage.put('hygiene/b.txt', Buffer.from('second'), 'text/plain');
    const a = await storage.signedUrl('hygiene/a.txt', 300);
    const b = await storage.signedUrl('hygiene/b.txt', 300);
    expect(await (await fetch(a)).text()).toBe('first');

    breakObject('hygiene/a.txt');
    const broken = await fetch(a);
    expect(broken.status).toBe(503);
    expect(await broken.json()).toMatchObject({ code: 'storage_unavailable', retryable: true, requestId: expect.any(String) });

    fs.rmSync(objectFile('hygiene/a.txt'), { recursive: true });
    const vanished = await fetch(a);
    expect(vanished.status).toBe(404);

    const next = await fetch(b);
    expect(next.status).toBe(200);
    expect(await next.text()).toBe('second');
  });

  it('answers a public icon that cannot be read with an error, and the server keeps serving', async () => {
    const user = await svc.login('icons@example.com');
    const handle = (await svc.api('POST', `/api/orgs/${user.orgHandle}/projects`, { token: user.token, body: { name: 'Icons' } })).body.project.handle;
    const { rows: [project] } = await svc.services.db.pool.query('SELECT id FROM projects WHERE handle = $1', [handle]);
    const key = `public/icons/${project.id}/icon.png`;
    await svc.services.storage.put(key, Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    await svc.services.db.pool.query(
      `INSERT INTO public_listings (hostname, project_id, destination_url, title, description, status, icon_key, icon_file, icon_content_type, published_at)
       VALUES ('icons.example.com', $1, 'https://icons.example.com/', 'Icons', 'A site', 'published', $2, 'icon.png', 'image/png', now())`,
      [project.id, key],
    );
    const url = `${svc.url}/api/public/leaderboard/icons/icons.example.com/icon.png`;
    expect((await fetch(url)).status).toBe(200);
    breakObject(key);
    const broken = await fetch(url);
    expect(broken.status).toBe(503);
    expect(((await broken.json()) as { code: string }).code).toBe('storage_unavailable');
    expect((await svc.api('GET', '/api/health')).status).toBe(200);
  });
});

/** `npm start` and `db-stop` on a data folder whose postmaster.pid names no Postgres of it. */
describe('a stale postmaster.pid', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-hygiene-'));
  fs.chmodSync(dataDir, 0o755);
  const pgDir = path.join(dataDir, 'pg');
  const children: ChildProcess[] = [];
  let env: Record<string, string>;
  let running: Spawned | null = null;

  beforeAll(async () => {
    delete process.env.DATABASE_URL;
    env = { DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'warn' };
    running = runCli(['start'], env);
    await running.waitFor(/Verbatim is running/);
    running.child.kill('SIGINT');
    expect(await running.exited(), `ended by ${running.signal()}; stderr:\n${running.stderr()}`).toBe(0);
    running = null;
  }, 120_000);
  afterAll(async () => {
    running?.child.kill('SIGKILL');
    for (const c of children) c.kill('SIGKILL');
    await runCliToEnd(['db-stop'], env);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const child = (cmd: string, args: string[]) => {
    const c = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(c);
    return c;
  };
  const state = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];
  const writePidFile = (pid: number) =>
    fs.writeFileSync(path.join(pgDir, 'postmaster.pid'), `${pid}\n${pgDir}\n${Math.floor(Date.now() / 1000)}\n${env.EMBEDDED_PG_PORT}\n/tmp\n127.0.0.1\n  1234567         0\nready   \n`);

  const cases: Array<[string, () => Promise<number>, RegExp]> = [
    [
      'a dead pid',
      async () => {
        const c = child('true', []);
        await new Promise((r) => c.on('exit', r));
        return c.pid!;
      },
      /pid \d+ is no longer running/,
    ],
    [
      'a zombie',
      async () => {
        // The shell starts a child, then becomes `sleep`, which never reaps it. The child exits only
        // once the shell is `sleep`: one that exited at once was sometimes reaped by the shell before
        // its exec (4 runs in 100 under load), and the test then found no process at all.
        const c = child('sh', ['-c', `sh -c 'until grep -qx sleep /proc/$PPID/comm; do sleep 0.01; done' & echo $!; exec sleep 120`]);
        const pid = Number(await new Promise<string>((r) => c.stdout!.once('data', (d) => r(String(d)))));
        for (let i = 0; i < 100 && state(pid) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 50));
        expect(state(pid)).toBe('Z');
        return pid;
      },
      /pid \d+ is a zombie/,
    ],
    [
      'a pid now used by another program',
      async () => {
        const c = child('sleep', ['120']);
        await new Promise((r) => c.once('spawn', r));
        return c.pid!;
      },
      /pid \d+ is now another program: sleep 120/,
    ],
  ];

  for (const [name, makePid, found] of cases) {
    it(`treats ${name} as stale: db-stop signals nothing and npm start starts, saying what it found`, async () => {
      const pid = await makePid();
      writePidFile(pid);
      expect(runningPostmaster(pgDir)).toBeNull();

      const stop = await runCliToEnd(['db-stop'], env);
      expect(stop.code, stop.stderr).toBe(0);
      expect(stop.stdout).toMatch(/postmaster.pid is stale/);
      expect(stop.stdout).toMatch(found);
      expect(stop.stdout).toMatch(/Nothing was signalled/);
      const other = children.at(-1)!;
      if (name.includes('another program')) expect(other.exitCode === null && other.signalCode === null).toBe(true);

      running = runCli(['start'], env);
      await running.waitFor(/Verbatim is running/);
      expect(running.stderr()).toMatch(/Removing a stale .*postmaster\.pid/);
      expect(running.stderr()).toMatch(found);
      expect(runningPostmaster(pgDir)).not.toBeNull();
      running.child.kill('SIGINT');
      expect(await running.exited(), `ended by ${running.signal()}; stderr:\n${running.stderr()}`).toBe(0);
      running = null;
      expect(runningPostmaster(pgDir)).toBeNull();
      if (name.includes('another program')) expect(other.exitCode === null && other.signalCode === null).toBe(true);
    }, 60_000);
  }

  /**
   * Ctrl-C while starting. Its Postgres already runs, the rest (migrations, worker, HTTP) is still
   * to come: the stop waits for the start, then stops everything. It used to end the process by
   * the signal (no handler yet) and leave Postgres running; the same gap just after the banner made
   * the SIGINTs above fail now and then under load.
   */
  it('stops cleanly on a Ctrl-C that comes while it starts: exit 0, its Postgres stopped', async () => {
    running = runCli(['start'], env);
    while (!runningPostmaster(pgDir) && running.child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
    running.child.kill('SIGINT');
    const code = await running.exited();
    const { signal, stderr } = { signal: running.signal(), stderr: running.stderr() };
    running = null;
    expect(code, `ended by ${signal}; stderr:\n${stderr}`).toBe(0);
    expect(stderr).toMatch(/SIGINT received: stopping/);
    expect(runningPostmaster(pgDir)).toBeNull();
    expect(fs.existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
  }, 60_000);

  it('db-stop stops a real Postgres left by a killed server', async () => {
    running = runCli(['start'], { ...env, WORKER: 'off' });
    await running.waitFor(/Verbatim is running/);
    running.child.kill('SIGKILL');
    await running.exited();
    running = null;
    const left = runningPostmaster(pgDir);
    expect(left).not.toBeNull();
    const stop = await runCliToEnd(['db-stop'], env);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toContain(`Stopped embedded Postgres (pid ${left!.pid})`);
    expect(runningPostmaster(pgDir)).toBeNull();
  }, 60_000);

  /**
   * A bug is provoked inside the real server: a module preloaded with --import throws (or
   * rejects) when the process gets SIGUSR2. Nothing in the server knows about it.
   */
  for (const kind of ['uncaughtException', 'unhandledRejection'] as const) {
    it(`logs an ${kind}, stops its Postgres and exits non-zero`, async () => {
      const provoke = path.join(dataDir, `provoke-${kind}.mjs`);
      fs.writeFileSync(
        provoke,
        kind === 'uncaughtException'
          ? `process.on('SIGUSR2', () => { throw new Error('provoked bug'); });\n`
          : `process.on('SIGUSR2', () => { Promise.reject(new Error('provoked bug')); });\n`,
      );
      running = runCli(['start'], { ...env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${provoke}`.trim() });
      await running.waitFor(/Verbatim is running/);
      expect(runningPostmaster(pgDir)).not.toBeNull();
      running.child.kill('SIGUSR2');
      const code = await running.exited();
      const stderr = running.stderr();
      running = null;
      expect(code).toBe(1);
      const crash = stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((r) => r.msg === `${kind}: exiting`);
      expect(crash).toMatchObject({ level: 'error', error: expect.stringContaining('provoked bug') });
      expect(runningPostmaster(pgDir)).toBeNull();
      expect(fs.existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
    }, 60_000);
  }
});
