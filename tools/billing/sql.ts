import type { Database } from '../../core/database.ts';
import { inTransaction as inPgTransaction, type Sql as Queryable } from '../../core/tx.ts';

/** Raw SQL with numbered bind parameters, on the pool or inside a transaction; returns the rows. */
export type Sql = <T = Record<string, unknown>>(text: string, bind?: unknown[]) => Promise<T[]>;

/** Billing's statements on the pool, or on the client of an open transaction. */
export function sqlOn(q: Queryable): Sql {
  return async <T>(text: string, bind: unknown[] = []) => (await q.query(text, bind)).rows as T[];
}

export function billingSql(services: { db: Database }): Sql {
  return sqlOn(services.db.pool);
}

export function inTransaction<T>(services: { db: Database }, work: (sql: Sql) => Promise<T>): Promise<T> {
  return inPgTransaction(services.db.pool, (client) => work(sqlOn(client)));
}
