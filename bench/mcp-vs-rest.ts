import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/**
 * `node bench/mcp-vs-rest.ts`: the MCP and REST project reads only, alternated for
 * BENCH_ROUNDS rounds against one service so both see the same machine load, with the
 * MCP/REST ratios of each round and their median. `BENCH_CPU_PROF=dir` profiles the service.
 * Quicker than `npm run bench` while working on the MCP path (issue 17).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const CPU_PROF = process.env.BENCH_CPU_PROF;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function launch(args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (ready.test(out)) resolve(child);
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${out}`)));
  });
}

async function measure(opts: autocannon.Options) {
  const result = await autocannon({ ...opts, duration: DURATION, connections: CONNECTIONS });
  if (result.non2xx || result.errors) throw new Error(`${opts.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, mean: result.latency.mean };
}

async function sequentialP50Ms(url: string, init: RequestInit, n = 1500): Promise<number> {
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

const line = (name: string, value: number, unit: string) => console.log(`${name}: ${Math.round(value * 100) / 100} ${unit}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-bench-'));
fs.chmodSync(dataDir, 0o755);
let service: ChildProcess | undefined;
try {
  const port = await freePort();
  const env = {
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    WORKER: 'on',
    BILLING: 'off',
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
    ENCRYPTION_KEY: 'b'.repeat(64),
  };
  const profile = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF)}`] : [];
  service = await launch([...profile, 'bin/verbatim.ts', 'start'], env, /Verbatim is running/);
  const base = `http://127.0.0.1:${port}`;
  const login = spawn(process.execPath, ['bin/verbatim.ts', 'login', '--email', 'bench@example.com'], { cwd: root, env: { ...process.env, ...env } });
  let loginOut = '';
  login.stdout.on('data', (d) => (loginOut += d));
  await new Promise((r) => login.on('exit', r));
  const { token, org_handle } = JSON.parse(loginOut) as { token: string; org_handle: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/orgs/${org_handle}/projects`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Bench' }) });
  if (created.status !== 201) throw new Error(`project create: ${created.status}`);

  const rest = { url: `${base}/api/orgs/${org_handle}/projects/bench`, headers: auth };
  const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'projects.get', arguments: { projectRef: `${org_handle}/bench` } } });
  const mcp = { url: `${base}/mcp`, method: 'POST' as const, headers: { ...auth, accept: 'application/json, text/event-stream' }, body: mcpBody };
  await measure({ ...rest, duration: 1 });
  await measure({ ...mcp, duration: 1 });
  const rpsRatios: number[] = [];
  const meanRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const r = await measure(rest);
    const m = await measure(mcp);
    line(`round${round}_rest_rps`, r.rps, 'req/s');
    line(`round${round}_mcp_rps`, m.rps, 'req/s');
    line(`round${round}_rest_p50`, r.p50, 'ms');
    line(`round${round}_mcp_p50`, m.p50, 'ms');
    rpsRatios.push(r.rps / m.rps);
    meanRatios.push(m.mean / r.mean);
  }
  line('rest_over_mcp_rps_median', median(rpsRatios), 'ratio');
  line('mcp_over_rest_mean_latency_median', median(meanRatios), 'ratio');
  if (!process.env.BENCH_NO_SEQUENTIAL) {
    const restOne = await sequentialP50Ms(rest.url, { headers: auth });
    const mcpOne = await sequentialP50Ms(mcp.url, { method: 'POST', headers: mcp.headers, body: mcpBody });
    line('rest_p50_one_at_a_time', restOne, 'ms');
    line('mcp_p50_one_at_a_time', mcpOne, 'ms');
    line('mcp_vs_rest_p50_one_at_a_time', mcpOne / restOne, 'ratio');
  }
} finally {
  service?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
