import fs from 'node:fs';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { migrateApart } from '../models/migrate-apart.ts';

/** Issue 17: pending migrations run in a child process, so the service never loads umzug. */
describe('migrations in a child process', () => {
  it('migrates an empty database completely, without loading umzug here', async () => {
    const admin = inject('pgAdminUrl');
    const name = `vt_apart_${randomBytes(5).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } finally {
      await client.end();
    }
    const url = new URL(admin);
    url.pathname = `/${name}`;
    await migrateApart(url.toString());
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    try {
      const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      const files = fs.readdirSync(new URL('../models/migrations/', import.meta.url)).filter((f) => /^\d{4}-.*\.ts$/.test(f)).sort();
      expect(rows.map((r) => r.name)).toEqual(files.map((f) => f.replace(/\.ts$/, '')));
      expect((await db.query(`SELECT to_regclass('signals') IS NOT NULL AS present`)).rows[0].present).toBe(true);
    } finally {
      await db.end();
    }
    expect(Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('/node_modules/umzug/'))).toBe(false);
    // Nothing left to do: a second run changes nothing and succeeds.
    await migrateApart(url.toString());
  });

  it('fails with what the child said when it cannot migrate', async () => {
    await expect(migrateApart('postgres://nobody:wrong@127.0.0.1:1/none')).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});
