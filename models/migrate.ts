import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Sequelize } from 'sequelize';

/** Migrations receive one function that runs SQL in the migration's transaction. */
export interface MigrationContext {
  context: (sql: string, bind?: unknown[]) => Promise<unknown>;
}

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** umzug's SequelizeStorage table: one row per applied migration. */
const TABLE = 'schema_migrations';
const MIGRATION_LOCK = 72_616_001;

const migrationFiles = () =>
  fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}-.*\.ts$/.test(f))
    .sort();

/** Whether any migration file has no row yet: one cheap read, so an up-to-date start loads nothing more. */
export async function anyPending(sequelize: Sequelize): Promise<boolean> {
  const [[table]] = (await sequelize.query(`SELECT to_regclass('${TABLE}') IS NOT NULL AS present`)) as [Array<{ present: boolean }>, unknown];
  if (!table.present) return true;
  const [rows] = (await sequelize.query(`SELECT name FROM ${TABLE}`)) as [Array<{ name: string }>, unknown];
  const applied = new Set(rows.map((r) => r.name));
  return migrationFiles().some((f) => !applied.has(f.replace(/\.ts$/, '')));
}

/** umzug over the migration files, loaded only when there is something to migrate (it weighs ~4 MiB of heap). */
export async function migrator(sequelize: Sequelize) {
  const { Umzug, SequelizeStorage } = await import('umzug');
  return new Umzug({
    migrations: migrationFiles().map((file) => ({
      name: file.replace(/\.ts$/, ''),
      up: async () => {
        const mod = await import(pathToFileURL(path.join(dir, file)).href);
        await sequelize.transaction(async (transaction) => {
          await mod.up({ context: (sql: string, bind?: unknown[]) => sequelize.query(sql, { transaction, bind }) });
        });
      },
      down: async () => {
        const mod = await import(pathToFileURL(path.join(dir, file)).href);
        await sequelize.transaction(async (transaction) => {
          await mod.down({ context: (sql: string, bind?: unknown[]) => sequelize.query(sql, { transaction, bind }) });
        });
      },
    })),
    storage: new SequelizeStorage({ sequelize, tableName: TABLE }),
    logger: undefined,
  });
}

/** Applies pending migrations; an advisory lock keeps concurrent starters (server, worker) in line. */
export async function migrate(sequelize: Sequelize): Promise<string[]> {
  if (!(await anyPending(sequelize))) return [];
  return sequelize.transaction(async (transaction) => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`, { transaction });
    const done = await (await migrator(sequelize)).up();
    return done.map((m) => m.name);
  });
}
