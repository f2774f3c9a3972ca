import type { Transaction } from 'sequelize';
import type { Database } from '../../core/database.ts';
import { selectRows } from '../../core/sql.ts';

/** Raw SQL with numbered bind parameters, optionally inside a transaction; returns the rows. */
export type Sql = <T = Record<string, unknown>>(text: string, bind?: unknown[]) => Promise<T[]>;

export function sqlOf(services: { db: Database }, transaction?: Transaction | null): Sql {
  return <T>(text: string, bind: unknown[] = []) => selectRows<T>(services, text, bind, transaction ?? undefined);
}

export function inTransaction<T>(services: { db: Database }, work: (sql: Sql) => Promise<T>): Promise<T> {
  return services.db.sequelize.transaction((transaction) => work(sqlOf(services, transaction)));
}
