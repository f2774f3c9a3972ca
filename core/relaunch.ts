import { prepareStrippedSources } from './strip-cache.ts';
import { startupHeapFlags } from './heap.ts';

/**
 * `npm start` (and `npm run worker`) replace their process, same pid, with the service process:
 * the same node, flags and arguments, plus
 * - glibc malloc limited to 2 arenas (MALLOC_ARENA_MAX): by default every thread that allocates
 *   (libuv's pool, V8's helpers) may get its own 64 MiB arena and keep its freed pages; 2 saves
 *   ~17 MiB at idle; and trimming freed memory at the top of the heap past 128 KiB
 *   (MALLOC_TRIM_THRESHOLD_, glibc's initial value, which it otherwise raises for good after the
 *   first large free): ~3 MiB at idle and ~4 after the load. An operator's own values win.
 * - the project's TypeScript loaded already stripped (`strip-cache.ts`), so the service never
 *   loads Node's type stripper;
 * - the heap flags V8 reads only at start (`heap.ts`: a smaller young generation).
 * glibc reads its settings only when a process starts, hence a new process image; execve keeps
 * the pid, so nothing stays resident and signals, exit codes and the output go where they went.
 */
const MARK = 'VERBATIM_SERVICE_PROCESS';
const MALLOC_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' };

export function relaunchAsService(): void {
  const added = process.env[MARK];
  if (added !== undefined) {
    // The service process: what the launcher added is not passed on to Postgres, ffmpeg and the rest.
    for (const name of [MARK, ...added.split(',').filter(Boolean)]) delete process.env[name];
    return;
  }
  if (process.platform !== 'linux' || typeof process.execve !== 'function') return;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  const mine = Object.keys(MALLOC_ENV).filter((name) => env[name] === undefined);
  for (const name of mine) env[name] = MALLOC_ENV[name];
  env[MARK] = mine.join(',');
  const hook = prepareStrippedSources();
  const flags = [...startupHeapFlags(), ...process.execArgv, ...(hook ? ['--import', hook] : [])];
  try {
    process.execve(process.execPath, [process.execPath, ...flags, ...process.argv.slice(1)], env);
  } catch {
    // not allowed here (a sandbox, a seccomp profile): the service runs in this process as before
  }
}
