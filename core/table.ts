import type { Sql } from './tx.ts';

type Missing<Row, L extends readonly unknown[]> = Exclude<keyof Row, L[number]>;

/**
 * Plain-row access to one table through `pg`: every column of `Row` is read (listing fewer
 * fails to compile, naming the missing ones), and writes name only known columns. Values go
 * as parameters; values of the columns listed in `json` are sent as JSON text (pg would send a
 * JS array as a Postgres array), other jsonb values must be passed as JSON text.
 */
export function table<Row extends { id: string }>() {
  return <const L extends ReadonlyArray<keyof Row & string>>(
    name: string,
    columns: L & ([Missing<Row, L>] extends [never] ? unknown : { missing: Missing<Row, L> }),
    json: ReadonlyArray<keyof Row & string> = [],
  ) => {
    const known = new Set<string>(columns);
    const jsonColumns = new Set<string>(json);
    const list = columns.join(', ');
    const named = (row: object) => {
      const keys = Object.keys(row).filter((k) => (row as Record<string, unknown>)[k] !== undefined);
      for (const k of keys) if (!known.has(k)) throw new Error(`${name} has no column ${k}`);
      const value = (k: string) => (row as Record<string, unknown>)[k];
      return { keys, values: keys.map((k) => (jsonColumns.has(k) && value(k) !== null ? JSON.stringify(value(k)) : value(k))) };
    };
    type Writable = Partial<Omit<Row, 'id' | 'created_at' | 'updated_at'>>;
    /** Sets the given columns of one row and `updated_at`; answers the row as saved, or undefined when there is none. */
    const update = async (sql: Sql, id: string, changes: Writable): Promise<Row | undefined> => {
      const { keys, values } = named(changes);
      const sets = [...keys.map((k, i) => `${k} = $${i + 2}`), 'updated_at = now()'];
      const { rows } = await sql.query<Row>(`UPDATE ${name} SET ${sets.join(', ')} WHERE id = $1 RETURNING ${list}`, [id, ...values]);
      return rows[0];
    };
    return {
      /** The column list, for statements of the caller's own. */
      columns: list,
      /** Rows matching `where` (placeholders from $1); `tail` may order, limit or lock. */
      async select(sql: Sql, where: string, values: unknown[], tail = ''): Promise<Row[]> {
        return (await sql.query<Row>(`SELECT ${list} FROM ${name} WHERE ${where} ${tail}`, values)).rows;
      },
      /** Adds one row; unset columns take their defaults. */
      async insert(sql: Sql, row: Writable & { id: string }): Promise<Row> {
        const { keys, values } = named(row);
        const { rows } = await sql.query<Row>(`INSERT INTO ${name} (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${list}`, values);
        return rows[0];
      },
      update,
      /** `update` for a row already read that the caller goes on using: the saved values are copied into it. */
      async save(sql: Sql, row: Row, changes: Writable): Promise<Row> {
        const saved = await update(sql, row.id, changes);
        return saved ? Object.assign(row, saved) : row;
      },
    };
  };
}
