import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from './database.ts';

/** Rows of a raw query (a SELECT, or a write with RETURNING), in the caller's transaction when given. */
export function selectRows<T>(services: { db: Database }, sql: string, bind: unknown[], transaction?: Transaction): Promise<T[]> {
  return services.db.sequelize.query(sql, { bind, transaction, type: QueryTypes.SELECT }) as Promise<T[]>;
}
