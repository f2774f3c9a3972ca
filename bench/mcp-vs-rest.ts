import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { sequentialP50Ms, startBenchService } from './harness.ts';

/**
 * `node bench/mcp-vs-rest.ts`: the MCP and REST project reads only (MCP both as a lone tools/call
 * and as a batch of one, which takes the SDK's path), alternated for
 * BENCH_ROUNDS rounds against one service so both see the same machine load, with the
 * MCP/REST ratios of each round and their median, including the service's CPU time per request
 * (from /proc), which other work on the machine moves far less than throughput. `BENCH_CPU_PROF=dir` profiles the service.
 * Quicker than `npm run bench` while working on the MCP path (issue 17).
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const CPU_PROF = process.env.BENCH_CPU_PROF;

/** The service's CPU time so far (user + system), in microseconds: less moved by other work on the machine than throughput. */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

let servicePid = 0;
async function measure(opts: autocannon.Options) {
  const cpuBefore = cpuMicros(servicePid);
  const result = await autocannon({ ...opts, duration: DURATION, connections: CONNECTIONS });
  const cpu = cpuMicros(servicePid) - cpuBefore;
  if (result.non2xx || result.errors) throw new Error(`${opts.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, mean: result.latency.mean, cpuPerRequest: cpu / result.requests.total };
}

const line = (name: string, value: number, unit: string) => console.log(`${name}: ${Math.round(value * 100) / 100} ${unit}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-bench-'));
fs.chmodSync(dataDir, 0o755);
let service: ChildProcess | undefined;
try {
  const started = await startBenchService(dataDir, CPU_PROF);
  service = started.child;
  servicePid = service.pid!;
  const { base, auth, orgHandle: org_handle } = started;

  const rest = { url: `${base}/api/orgs/${org_handle}/projects/bench`, headers: auth };
  const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'projects.get', arguments: { projectRef: `${org_handle}/bench` } } });
  const mcp = { url: `${base}/mcp`, method: 'POST' as const, headers: { ...auth, accept: 'application/json, text/event-stream' }, body: mcpBody };
  await measure({ ...rest, duration: 1 });
  await measure({ ...mcp, duration: 1 });
  if (process.env.BENCH_ONLY === 'mcp') {
    // For a profile of the MCP path alone.
    for (let round = 0; round < ROUNDS; round++) line(`round${round}_mcp_cpu_per_request`, (await measure(mcp)).cpuPerRequest, 'µs');
  } else {
    // A batch of one goes through the SDK's Server (core/mcp-fast-call.ts answers only a lone tools/call): the path every call took before.
    const sdk = { ...mcp, body: `[${mcpBody}]` };
    await measure({ ...sdk, duration: 1 });
    const ratios: Record<string, number[]> = { rps_rest_over_mcp: [], rps_rest_over_mcp_sdk: [], mean_latency_mcp_over_rest: [], mean_latency_mcp_sdk_over_rest: [], cpu_mcp_over_rest: [], cpu_mcp_sdk_over_rest: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const r = await measure(rest);
      const m = await measure(mcp);
      const k = await measure(sdk);
      for (const [name, x] of Object.entries({ rest: r, mcp: m, mcp_sdk: k })) {
        line(`round${round}_${name}_rps`, x.rps, 'req/s');
        line(`round${round}_${name}_cpu_per_request`, x.cpuPerRequest, 'µs');
      }
      ratios.rps_rest_over_mcp.push(r.rps / m.rps);
      ratios.rps_rest_over_mcp_sdk.push(r.rps / k.rps);
      ratios.mean_latency_mcp_over_rest.push(m.mean / r.mean);
      ratios.mean_latency_mcp_sdk_over_rest.push(k.mean / r.mean);
      ratios.cpu_mcp_over_rest.push(m.cpuPerRequest / r.cpuPerRequest);
      ratios.cpu_mcp_sdk_over_rest.push(k.cpuPerRequest / r.cpuPerRequest);
    }
    for (const [name, xs] of Object.entries(ratios)) line(`${name}_median`, median(xs), 'ratio');
    if (!process.env.BENCH_NO_SEQUENTIAL) {
      const restOne = await sequentialP50Ms(rest.url, { headers: auth });
      const mcpOne = await sequentialP50Ms(mcp.url, { method: 'POST', headers: mcp.headers, body: mcpBody });
      line('rest_p50_one_at_a_time', restOne, 'ms');
      line('mcp_p50_one_at_a_time', mcpOne, 'ms');
      const sdkOne = await sequentialP50Ms(mcp.url, { method: 'POST', headers: mcp.headers, body: sdk.body });
      line('mcp_sdk_p50_one_at_a_time', sdkOne, 'ms');
      line('mcp_vs_rest_p50_one_at_a_time', mcpOne / restOne, 'ratio');
      line('mcp_sdk_vs_rest_p50_one_at_a_time', sdkOne / restOne, 'ratio');
    }
  }
} finally {
  service?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
