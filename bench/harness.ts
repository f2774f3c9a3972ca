import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

/** What the benches share: starting processes, a free port, and the service signed in with a project. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export function launch(args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      if (ready.test(out)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${out}`)));
  });
}

/**
 * p50 of one request at a time, timed to the microsecond: autocannon's percentiles are whole
 * milliseconds, too coarse to compare two paths that both answer in 1 to 2 ms.
 */
export async function sequentialP50Ms(url: string, init: RequestInit, n = 1500): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n + 200; i++) {
    const started = performance.now();
    const res = await fetch(url, init);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    if (i >= 200) times.push(performance.now() - started);
  }
  return times.sort((x, y) => x - y)[Math.floor(times.length / 2)];
}

/**
 * p50 under load, timed to the microsecond: `connections` requests kept in flight for
 * `durationMs` by one undici pool (the first fifth not counted, as warm-up). autocannon gives the
 * throughput; its whole-millisecond percentiles cannot tell 1.4 ms from 1.9 ms.
 */
export async function loadedP50Ms(url: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }, connections: number, durationMs = 5000): Promise<number> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections, pipelining: 1 });
  const started = performance.now();
  const times: number[] = [];
  const worker = async () => {
    while (performance.now() - started < durationMs) {
      const sent = performance.now();
      const res = await pool.request({ path: target.pathname + target.search, method: init.method ?? 'GET', headers: init.headers, body: init.body });
      await res.body.arrayBuffer();
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode}`);
      if (sent - started > durationMs / 5) times.push(performance.now() - sent);
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    await pool.close();
  }
  return times.sort((x, y) => x - y)[Math.floor(times.length / 2)];
}

export interface BenchService {
  child: ChildProcess;
  env: Record<string, string>;
  base: string;
  token: string;
  orgHandle: string;
  /** Bearer and JSON headers of the signed-in bench user. */
  auth: Record<string, string>;
}

/**
 * `npm start` on a fresh embedded Postgres in `dataDir`, in production mode with the worker on
 * and billing off, then a user signed in by the CLI who owns project `bench`.
 * `cpuProfileDir` runs it under `node --cpu-prof`.
 */
export async function startBenchService(dataDir: string, cpuProfileDir?: string): Promise<BenchService> {
  const port = await freePort();
  const env = {
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    WORKER: 'on',
    // A thousand interviews in one organization: the bench measures processing, not credits.
    BILLING: 'off',
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
    ENCRYPTION_KEY: 'b'.repeat(64),
  };
  const profile = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProfileDir)}`] : [];
  const child = await launch([...profile, 'bin/verbatim.ts', 'start'], env, /Verbatim is running/);
  const base = `http://127.0.0.1:${port}`;
  const login = spawn(process.execPath, ['bin/verbatim.ts', 'login', '--email', 'bench@example.com'], { cwd: root, env: { ...process.env, ...env } });
  let loginOut = '';
  login.stdout.on('data', (d) => (loginOut += d));
  await new Promise((r) => login.on('exit', r));
  const { token, org_handle } = JSON.parse(loginOut) as { token: string; org_handle: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/orgs/${org_handle}/projects`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Bench' }) });
  if (created.status !== 201) throw new Error(`project create: ${created.status}`);
  return { child, env, base, token, orgHandle: org_handle, auth };
}
