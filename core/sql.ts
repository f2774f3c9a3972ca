import type { Database } from './database.ts';
import type { Sql } from './tx.ts';

/** Rows of a raw query (a SELECT, or a write with RETURNING) on the pool, or on `sql` (an open transaction's client) when given. */
export async function selectRows<T>(services: { db: Database }, text: string, bind: unknown[], sql?: Sql): Promise<T[]> {
  return (await (sql ?? services.db.pool).query(text, bind)).rows as T[];
}
