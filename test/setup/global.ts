import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../core/embedded-postgres.ts';
import { connect, ensureDatabase } from '../../core/database.ts';
import { createLogger } from '../../core/logger.ts';
import { migrate } from '../../models/migrate.ts';
import { migrateQueue } from '../../jobs/runner.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * One Postgres per test run: DATABASE_URL's server when set, else an embedded one in a
 * temporary folder. Migrations run once into a template database; each test file clones it.
 */
export default async function setup(project: TestProject) {
  const log = createLogger('warn');
  let stop = async () => {};
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-test-'));
    fs.chmodSync(dir, 0o755);
    const pg = await startEmbeddedPostgres(dir, await freePort(), log);
    adminUrl = pg.url('postgres');
    stop = async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const templateDb = `verbatim_template_${process.pid}`;
  await ensureDatabase(adminUrl, templateDb);
  const db = connect(withDatabase(adminUrl, templateDb), log, { poolSize: 4 });
  await migrate(db.pool);
  await migrateQueue(db.pool, log);
  await db.close();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDb', templateDb);
  return async () => {
    if (process.env.DATABASE_URL) {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`, [`vt_${process.pid}_%`, templateDb]);
      for (const r of rows) await client.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
      await client.end();
    }
    await stop();
  };
}
