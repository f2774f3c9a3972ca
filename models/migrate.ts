import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type pg from 'pg';
import { inTransaction } from '../core/tx.ts';

/** Migrations receive one function that runs SQL in the migration's transaction. */
export interface MigrationContext {
  context: (sql: string, bind?: unknown[]) => Promise<unknown>;
}

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** One row per applied migration (the table umzug's SequelizeStorage made before). */
const TABLE = 'schema_migrations';
const MIGRATION_LOCK = 72_616_001;

const migrationFiles = () =>
  fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}-.*\.ts$/.test(f))
    .sort();

/** Whether any migration file has no row yet: one cheap read, so an up-to-date start loads nothing more. */
export async function anyPending(pool: pg.Pool): Promise<boolean> {
  const { rows: [table] } = await pool.query<{ present: boolean }>(`SELECT to_regclass('${TABLE}') IS NOT NULL AS present`);
  if (!table.present) return true;
  const { rows } = await pool.query<{ name: string }>(`SELECT name FROM ${TABLE}`);
  const applied = new Set(rows.map((r) => r.name));
  return migrationFiles().some((f) => !applied.has(f.replace(/\.ts$/, '')));
}

/** Where umzug keeps what ran: the table umzug's SequelizeStorage made before (one `name` per applied migration), so existing databases carry on. */
function storage(pool: pg.Pool) {
  let made: Promise<unknown> | null = null;
  const ready = () => (made ??= pool.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (name varchar(255) PRIMARY KEY)`));
  return {
    async executed() {
      await ready();
      return (await pool.query<{ name: string }>(`SELECT name FROM ${TABLE} ORDER BY name`)).rows.map((r) => r.name);
    },
    async logMigration({ name }: { name: string }) {
      await ready();
      await pool.query(`INSERT INTO ${TABLE} (name) VALUES ($1)`, [name]);
    },
    async unlogMigration({ name }: { name: string }) {
      await ready();
      await pool.query(`DELETE FROM ${TABLE} WHERE name = $1`, [name]);
    },
  };
}

/** umzug over the migration files, loaded only when there is something to migrate (it weighs ~4 MiB of heap). */
export async function migrator(pool: pg.Pool) {
  const { Umzug } = await import('umzug');
  const run = (file: string, way: 'up' | 'down') => async () => {
    const mod = await import(pathToFileURL(path.join(dir, file)).href);
    await inTransaction(pool, (client) => mod[way]({ context: (sql: string, bind?: unknown[]) => client.query(sql, bind) }));
  };
  return new Umzug({
    migrations: migrationFiles().map((file) => ({ name: file.replace(/\.ts$/, ''), up: run(file, 'up'), down: run(file, 'down') })),
    storage: storage(pool),
    logger: undefined,
  });
}

/** Applies pending migrations; an advisory lock (held on one connection while each migration runs on another) keeps concurrent starters in line. */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  if (!(await anyPending(pool))) return [];
  return inTransaction(pool, async (lock) => {
    await lock.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    const done = await (await migrator(pool)).up();
    return done.map((m) => m.name);
  });
}
