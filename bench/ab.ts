import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, launch, startBenchService, type BenchService } from './harness.ts';

/**
 * `node bench/ab.ts <other checkout>`: this checkout (A) against another one (B, e.g. a
 * `git worktree` of the commit before, with `node_modules`), each started as `npm run bench`
 * starts the service, measured with bare Express in alternating slices (BENCH_ROUNDS of
 * BENCH_SECONDS each) so the host's drift moves all three alike. BENCH_ROUTE is `health` or
 * `project` (the REST project read). Prints each round and the median ratios.
 */
const other = process.argv[2];
if (!other) throw new Error('usage: node bench/ab.ts <other checkout>');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const ROUTE = process.env.BENCH_ROUTE ?? 'health';

const { startBenchService: startOther } = (await import(path.resolve(other, 'bench/harness.ts'))) as { startBenchService: typeof startBenchService };
const dirs = [0, 1].map(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-ab-'));
  fs.chmodSync(dir, 0o755);
  return dir;
});
const helloPort = await freePort();
const hello = await launch(['bench/hello.ts'], { PORT: String(helloPort) }, /ready/);
const services: BenchService[] = [];
const urlOf = (s: BenchService) => (ROUTE === 'health' ? `${s.base}/api/health` : `${s.base}/api/orgs/${s.orgHandle}/projects/bench`);
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
try {
  services.push(await startBenchService(dirs[0]), await startOther(dirs[1]));
  const targets = [{ url: `http://127.0.0.1:${helloPort}/`, headers: {} }, ...services.map((s) => ({ url: urlOf(s), headers: s.auth }))];
  for (const t of targets) await autocannon({ ...t, duration: 1, connections: 20 });
  const ratios = { a_vs_express: [] as number[], b_vs_express: [] as number[], a_vs_b: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const rps: number[] = [];
    for (const t of targets) {
      const result = await autocannon({ ...t, duration: SECONDS, connections: 20 });
      if (result.non2xx || result.errors) throw new Error(`${t.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rps.push(result.requests.average);
    }
    const [express, a, b] = rps;
    ratios.a_vs_express.push(a / express);
    ratios.b_vs_express.push(b / express);
    ratios.a_vs_b.push(a / b);
    console.log(`round ${round}: express ${Math.round(express)}, A ${Math.round(a)}, B ${Math.round(b)} req/s`);
  }
  for (const [name, xs] of Object.entries(ratios)) console.log(`${ROUTE}_${name}: ${median(xs).toFixed(2)} ratio`);
} finally {
  hello.kill('SIGTERM');
  for (const s of services) s.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 2000));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}
