import type pg from 'pg';

/** Where a statement runs: the pool (a transaction of its own) or the client of an open transaction. */
export type Sql = Pick<pg.Pool, 'query'>;

/**
 * Runs `work` in one transaction on a client of the pool: committed when it returns, rolled back
 * when it throws. A client whose ROLLBACK fails is destroyed, not returned to the pool.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (sql: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const out = await work(client);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
    throw err;
  } finally {
    client.release(broken);
  }
}
