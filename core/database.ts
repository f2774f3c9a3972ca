import pg from 'pg';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { startEmbeddedPostgres, runningEmbeddedUrl, type EmbeddedPostgresHandle } from './embedded-postgres.ts';

export interface Database {
  url: string;
  /** The one pool every statement and graphile-worker use. */
  pool: pg.Pool;
  close(): Promise<void>;
}

const DEFAULT_DB = 'verbatim';

// Postgres bigint/numeric come back as strings by default; counts we read are small.
pg.types.setTypeParser(20, (v) => Number(v));

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

export interface DatabaseLocation {
  url: string;
  embedded: EmbeddedPostgresHandle | null;
}

/**
 * Where the data lives: DATABASE_URL when set; else the embedded Postgres already running
 * for this data folder (when `attach` is allowed, as CLI commands beside a server do);
 * else a new embedded Postgres in DATA_DIR.
 */
export async function locateDatabase(config: Config, log: Logger, opts: { attach?: boolean } = {}): Promise<DatabaseLocation> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: null };
  if (opts.attach) {
    const url = runningEmbeddedUrl(config.dataDir, DEFAULT_DB);
    if (url) return { url, embedded: null };
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
  try {
    await ensureDatabase(embedded.url('postgres'), DEFAULT_DB);
  } catch (err) {
    await embedded.stop();
    throw err;
  }
  return { url: embedded.url(DEFAULT_DB), embedded };
}

export function connect(url: string, log: Logger, sizes: { poolSize?: number } = {}): Database {
  const { poolSize = 10 } = sizes;
  // UTC, so timestamps read as text (tools/common.ts isoRequired) are UTC too.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: '-c TimeZone=UTC' });
  pool.on('error', (err) => log.warn('postgres pool error', { message: err.message }));
  pool.on('connect', (client) => client.on('error', (err) => log.warn('postgres client error', { message: err.message })));
  return {
    url,
    pool,
    async close() {
      await pool.end();
    },
  };
}
