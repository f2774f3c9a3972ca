import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Umzug, SequelizeStorage } from 'umzug';
import type { Sequelize } from 'sequelize';

/** Migrations receive one function that runs SQL in the migration's transaction. */
export interface MigrationContext {
  context: (sql: string, bind?: unknown[]) => Promise<unknown>;
}

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export function migrator(sequelize: Sequelize) {
  const files = fs.readdirSync(dir).filter((f) => /^\d{4}-.*\.ts$/.test(f)).sort();
  return new Umzug({
    migrations: files.map((file) => ({
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
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

const MIGRATION_LOCK = 72_616_001;

/** Applies pending migrations; an advisory lock keeps concurrent starters (server, worker) in line. */
export async function migrate(sequelize: Sequelize): Promise<string[]> {
  return sequelize.transaction(async (transaction) => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`, { transaction });
    const done = await migrator(sequelize).up();
    return done.map((m) => m.name);
  });
}
