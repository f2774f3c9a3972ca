import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { table } from '../core/table.ts';
import { inTransaction } from '../core/tx.ts';
import { cloneDatabase } from './helpers/service.ts';

interface NoteRow {
  id: string;
  body: string;
  tags_json: string[] | null;
  created_at: Date;
  updated_at: Date;
}

const notes = table<NoteRow>()('table_notes', ['id', 'body', 'tags_json', 'created_at', 'updated_at'], ['tags_json']);

describe('table(): plain-row access through pg', () => {
  let pool: pg.Pool;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await cloneDatabase(), max: 2 });
    await pool.query(`CREATE TABLE table_notes (id text PRIMARY KEY, body text NOT NULL, tags_json jsonb, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())`);
  });
  afterAll(async () => {
    await pool.end();
  });

  it('inserts, selects and updates plain rows, sending JSON columns as JSON', async () => {
    const row = await notes.insert(pool, { id: 'n1', body: 'first', tags_json: ['a', 'b'] });
    expect(row).toMatchObject({ id: 'n1', body: 'first', tags_json: ['a', 'b'] });
    expect(row.created_at).toBeInstanceOf(Date);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);

    const [read] = await notes.select(pool, 'id = $1', ['n1']);
    expect(read).toEqual(row);

    const { update, save } = notes; // works detached, as callers pass them around
    const updated = await update(pool, 'n1', { body: 'second' });
    expect(updated?.body).toBe('second');
    expect(updated!.updated_at.getTime()).toBeGreaterThanOrEqual(row.updated_at.getTime());
    expect(await update(pool, 'missing', { body: 'x' })).toBeUndefined();

    const saved = await save(pool, read, { tags_json: null });
    expect(saved).toBe(read);
    expect(read.tags_json).toBeNull();
    expect(read.body).toBe('second');
  });

  it('refuses a column the table does not list, before anything is sent', async () => {
    await expect(notes.insert(pool, { id: 'n2', body: 'x', colour: 'red' } as never)).rejects.toThrow('table_notes has no column colour');
    expect((await pool.query(`SELECT 1 FROM table_notes WHERE id = 'n2'`)).rowCount).toBe(0);
  });

  it('writes through an open transaction and leaves nothing when it rolls back', async () => {
    await expect(
      inTransaction(pool, async (sql) => {
        await notes.insert(sql, { id: 'n3', body: 'inside' });
        expect(await notes.select(sql, 'id = $1', ['n3'])).toHaveLength(1);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await notes.select(pool, 'id = $1', ['n3'])).toHaveLength(0);
  });
});
