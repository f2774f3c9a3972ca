import { randomBytes } from 'node:crypto';
import type { Sql } from './tx.ts';

/**
 * A random server secret kept in the database, so every process (and the CLI) shares it:
 * created on first use, then read back. Used for user-token HMAC and storage URL signing.
 */
export async function serverSecret(sql: Sql, name: string): Promise<Buffer> {
  const fresh = randomBytes(32).toString('base64url');
  await sql.query(`INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [name, fresh]);
  const { rows } = await sql.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = $1`, [name]);
  return Buffer.from(rows[0].value, 'base64url');
}
