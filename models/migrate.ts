import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Sequelize } from 'sequelize';

/** Migrations receive one function that runs SQL in the migration's transaction. */
export interface MigrationContext {
  context: (sql: string, bind?: unknown[]) => Promise<unknown>;
}

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** One row per applied migration (the table umzug's SequelizeStorage kept, so existing databases carry on). */
const TABLE = 'schema_migrations';
const MIGRATION_LOCK = 72_616_001;

const migrationNames = () =>
  fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}-.*\.ts$/.test(f))
    .sort()
    .map((f) => f.replace(/\.ts$/, ''));

async function appliedNames(sequelize: Sequelize): Promise<Set<string> | null> {
  const [[table]] = (await sequelize.query(`SELECT to_regclass('${TABLE}') IS NOT NULL AS present`)) as [Array<{ present: boolean }>, unknown];
  if (!table.present) return null;
  const [rows] = (await sequelize.query(`SELECT name FROM ${TABLE}`)) as [Array<{ name: string }>, unknown];
  return new Set(rows.map((r) => r.name));
}

/**
 * Applies pending migrations in file order, each in its own transaction together with its
 * row in schema_migrations. An advisory lock keeps concurrent starters (server, worker) in
 * line; a start with nothing pending takes no lock (migrations are only ever added).
 */
export async function migrate(sequelize: Sequelize): Promise<string[]> {
  const pending = (applied: Set<string> | null) => migrationNames().filter((name) => !applied?.has(name));
  if (!pending(await appliedNames(sequelize)).length) return [];
  return sequelize.transaction(async (lock) => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`, { transaction: lock });
    await sequelize.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (name varchar(255) PRIMARY KEY)`);
    const done: string[] = [];
    for (const name of pending(await appliedNames(sequelize))) {
      const mod = (await import(pathToFileURL(path.join(dir, `${name}.ts`)).href)) as { up(ctx: MigrationContext): Promise<void> };
      await sequelize.transaction(async (transaction) => {
        await mod.up({ context: (sql: string, bind?: unknown[]) => sequelize.query(sql, { transaction, bind }) });
        await sequelize.query(`INSERT INTO ${TABLE} (name) VALUES ($1)`, { transaction, bind: [name] });
      });
      done.push(name);
    }
    return done;
  });
}
