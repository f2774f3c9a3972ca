import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Old-generation growth between full collections, in percent of the live heap. V8's default
 * lets the old generation grow to up to 4x the live heap before a full collection: a server
 * with a ~50 MiB live heap then sits at ~340 MiB after a burst of requests (request objects
 * alive across two scavenges are promoted, then die in old space) and keeps the pages.
 * Measured on the bench's REST and MCP load, 2x costs ~2 % of requests per second (full
 * collections are small, ~10 ms, marking on a helper thread) for ~100 MiB less; 1.6x costs
 * ~5 % for another 20 MiB, 1.3x ~20 %. 0 leaves V8's default.
 */
const HEAP_GROWING_PERCENT = 100;

/**
 * The young generation's semi-spaces, in MiB. V8 grows them to 16 MiB each under load and keeps
 * them (32 MiB of RSS). Measured on the bench's health, REST and MCP load (--trace-gc, one run
 * each): 16 MiB, 286 scavenges and 17 full collections, 1.31 s of GC, RSS after ~210 MiB;
 * 8 MiB, 1.40 s, ~188 MiB; 4 MiB, 1021 shorter scavenges and 19 full collections, 1.69 s,
 * ~180 MiB. The load is ~18 s of autocannon plus 3,400 sequential requests.
 */
const MAX_SEMI_SPACE_MIB = 4;

/**
 * Flags V8 reads only when the heap is set up: `core/relaunch.ts` gives them to the service
 * process it starts. An operator's own value wins.
 */
export function startupHeapFlags(): string[] {
  return operatorSet('--max-semi-space-size') ? [] : [`--max-semi-space-size=${MAX_SEMI_SPACE_MIB}`];
}

/** V8's own default (`node --v8-options`), put back once start-up's bytecode is flushed. */
const V8_BYTECODE_OLD_AGE = 6;

const operatorSet = (flag: string) =>
  [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) => arg.replace(/_/g, '-').startsWith(flag));

/** For long-running processes (server, worker); an operator's own --heap-growing-percent wins. V8 reads it at every collection. */
export function boundHeapGrowth(): void {
  if (HEAP_GROWING_PERCENT > 0 && !operatorSet('--heap-growing-percent')) v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * One memory-reducing full collection once the process is up: start-up leaves tens of MiB of
 * garbage (migrations, compiling every module, stripping types) and a young generation grown
 * to its maximum. V8 shrinks these only after a collection that already freed memory, which an
 * idle server never runs, so without this an idle process keeps ~40 MiB it does not use.
 */
export function releaseStartupGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as NodeJS.GCFunction;
  if (!operatorSet('--expose-gc')) v8.setFlagsFromString('--no-expose-gc');
  // Bytecode of functions that ran only while starting (module bodies, migrations, schema
  // building) is flushed: V8 drops bytecode not run for --bytecode-old-age full collections,
  // which an idle server never reaches. ~1 MiB of bytecode; a function needed again is compiled again.
  if (!operatorSet('--bytecode-old-age')) {
    v8.setFlagsFromString('--bytecode-old-age=1');
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    v8.setFlagsFromString(`--bytecode-old-age=${V8_BYTECODE_OLD_AGE}`);
  }
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
