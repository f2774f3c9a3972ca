import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/**
 * `npm run bench`: starts the service on a fresh database (embedded Postgres in a temporary
 * folder, or DATABASE_URL) and a bare Express hello-world, each in its own process, and
 * measures them with autocannon from this one. Prints `name: value unit` lines.
 * Goals: REST read >= 80 % of bare Express; MCP p50 <= 1.5 x REST p50.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

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
    const onData = (d: Buffer) => {
      out += d;
      if (ready.test(out)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${out}`)));
  });
}

async function measure(opts: autocannon.Options) {
  await autocannon({ ...opts, duration: 1, connections: CONNECTIONS }); // warm-up
  const result = await autocannon({ ...opts, duration: DURATION, connections: CONNECTIONS });
  if (result.non2xx || result.errors) throw new Error(`${opts.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const line = (name: string, value: number, unit: string) => process.stdout.write(`${name}: ${Number(value.toFixed(2))} ${unit}\n`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-bench-'));
fs.chmodSync(dataDir, 0o755);
const children: ChildProcess[] = [];
try {
  const helloPort = await freePort();
  children.push(await launch(['bench/hello.ts'], { PORT: String(helloPort) }, /ready/));
  const express = await measure({ url: `http://127.0.0.1:${helloPort}/` });
  line('express_hello_rps', express.rps, 'req/s');
  children.pop()!.kill('SIGTERM');

  const port = await freePort();
  const env = {
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    WORKER: 'off',
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
    ENCRYPTION_KEY: 'b'.repeat(64),
  };
  const service = await launch(['bin/verbatim.ts', 'start'], env, /Verbatim is running/);
  children.push(service);
  const base = `http://127.0.0.1:${port}`;

  const login = spawn(process.execPath, ['bin/verbatim.ts', 'login', '--email', 'bench@example.com'], { cwd: root, env: { ...process.env, ...env } });
  let loginOut = '';
  login.stdout.on('data', (d) => (loginOut += d));
  await new Promise((r) => login.on('exit', r));
  const { token, org_handle } = JSON.parse(loginOut) as { token: string; org_handle: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/orgs/${org_handle}/projects`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Bench' }) });
  if (created.status !== 201) throw new Error(`project create: ${created.status}`);

  const health = await measure({ url: `${base}/api/health` });
  line('health_rps', health.rps, 'req/s');

  const rest = await measure({ url: `${base}/api/orgs/${org_handle}/projects/bench`, headers: auth });
  line('rest_project_read_rps', rest.rps, 'req/s');
  line('rest_project_read_p50', rest.p50, 'ms');
  line('rest_project_read_p99', rest.p99, 'ms');

  const mcp = await measure({
    url: `${base}/mcp`,
    method: 'POST',
    headers: { ...auth, accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'projects.get', arguments: { projectRef: `${org_handle}/bench` } } }),
  });
  line('mcp_project_read_rps', mcp.rps, 'req/s');
  line('mcp_project_read_p50', mcp.p50, 'ms');
  line('mcp_project_read_p99', mcp.p99, 'ms');

  line('rest_read_vs_express', rest.rps / express.rps, 'ratio');
  line('mcp_vs_rest_p50', mcp.p50 / Math.max(rest.p50, 0.001), 'ratio');
  const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${service.pid}/status`, 'utf8'));
  if (rss) line('service_rss_after_load', Number(rss[1]) / 1024, 'MiB');
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
