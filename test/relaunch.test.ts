import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './setup/global.ts';
import { runCli, runCliToEnd, type Spawned } from './helpers/process.ts';
import { ROOT, prepareStrippedSources } from '../core/strip-cache.ts';

/**
 * `npm start` becomes the service process in place (core/relaunch.ts): same pid, glibc malloc
 * limited to 2 arenas and trimming, a smaller young generation, the project's TypeScript loaded already
 * stripped so that Node's type stripper is never loaded, and none of it passed on to the
 * programs the service starts.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-relaunch-'));
fs.chmodSync(dataDir, 0o755);
let env: Record<string, string>;
let running: Spawned | null = null;

afterAll(async () => {
  running?.child.kill('SIGKILL');
  if (env) await runCliToEnd(['db-stop'], env);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const environOf = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
const childrenOf = (pid: number) =>
  fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);

/** Runs `code` as an ES module in a fresh node, with the hook the launcher gives the service. */
function nodeWithHook(hook: string, code: string): string {
  return execFileSync(process.execPath, ['--import', hook, '--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
}
const stripperLoaded = "process.moduleLoadList.some((m) => m.includes('amaro'))";

describe('npm start relaunches itself as the service process', () => {
  it('keeps its pid, limits malloc arenas, serves, and passes neither setting on to Postgres', async () => {
    const port = await freePort();
    env = { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'warn' };
    delete process.env.MALLOC_ARENA_MAX;
    delete process.env.MALLOC_TRIM_THRESHOLD_;
    running = runCli(['start'], env);
    await running.waitFor(/Verbatim is running/);
    const pid = running.child.pid!;
    // The process the user started is the service: no parent left behind, node itself serving.
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--import');
    expect(argv).toContain('--max-semi-space-size=4');
    expect(environOf(pid)).toContain('MALLOC_ARENA_MAX=2');
    expect(environOf(pid)).toContain('MALLOC_TRIM_THRESHOLD_=131072');
    expect(((await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as { checks: unknown }).checks).toEqual({ encryption_key: true, database: true });

    const postgres = childrenOf(pid).filter((c) => fs.readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('postgres'));
    expect(postgres.length).toBe(1);
    expect(environOf(postgres[0]).filter((v) => /^(MALLOC_ARENA_MAX|MALLOC_TRIM_THRESHOLD_|VERBATIM_SERVICE_PROCESS)=/.test(v))).toEqual([]);

    running.child.kill('SIGINT');
    expect(await running.exited()).toBe(0);
    running = null;
  });

  it("keeps an operator's own MALLOC_ARENA_MAX and young generation size", async () => {
    running = runCli(['start'], { ...env, MALLOC_ARENA_MAX: '4', NODE_OPTIONS: '--max-semi-space-size=8' });
    await running.waitFor(/Verbatim is running/);
    expect(environOf(running.child.pid!)).toContain('MALLOC_ARENA_MAX=4');
    expect(fs.readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8')).not.toContain('--max-semi-space-size');
    running.child.kill('SIGINT');
    expect(await running.exited()).toBe(0);
    running = null;
  });

  it("loads the project's stripped copies without Node's type stripper, and an edited file still loads", () => {
    const hook = prepareStrippedSources();
    expect(hook).not.toBeNull();
    const lazy = pathToFileURL(path.join(ROOT, 'core', 'lazy.ts')).href;
    expect(nodeWithHook(hook!, `const m = await import('${lazy}'); console.log(typeof m.lazyModule, ${stripperLoaded});`).trim()).toBe('function false');

    // A source without a copy (edited since the launcher ran) goes to Node's stripper as before.
    const edited = path.join(dataDir, `edited-${Date.now()}.ts`);
    fs.writeFileSync(edited, 'const n: number = 41;\nexport const answer = n + 1;\n');
    const url = pathToFileURL(edited).href;
    expect(nodeWithHook(hook!, `const m = await import('${url}'); console.log(m.answer, ${stripperLoaded});`).trim()).toBe('42 true');
  });
});
