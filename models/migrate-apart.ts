import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Pending migrations, applied by a short-lived child process: umzug and its command-line
 * dependencies (~4 MiB of heap, which no module cache gives back) load there, never in the
 * long-running service. Same node, same flags; the database address travels in the
 * environment, not on the command line. Its own error (a failed migration) is this one's.
 */
const ENTRY = fileURLToPath(new URL('./migrate-main.ts', import.meta.url));
export const MIGRATE_URL_ENV = 'VERBATIM_MIGRATE_DATABASE_URL';

export function migrateApart(databaseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ENTRY], {
      env: { ...process.env, [MIGRATE_URL_ENV]: databaseUrl },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve();
      const said = stderr.trim().split('\n').filter((l) => !/ExperimentalWarning|--trace-warnings/.test(l)).join('\n');
      reject(new Error(said || `migrations stopped (${signal ?? `exit ${code}`})`));
    });
  });
}
