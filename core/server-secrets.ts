import { randomBytes } from 'node:crypto';
import type { Sequelize } from 'sequelize';

/**
 * A random server secret kept in the database, so every process (and the CLI) shares it:
 * created on first use, then read back. Used for user-token HMAC and storage URL signing.
 */
export async function serverSecret(sequelize: Sequelize, name: string): Promise<Buffer> {
  const fresh = randomBytes(32).toString('base64url');
  await sequelize.query(`INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, { bind: [name, fresh] });
  const [rows] = await sequelize.query(`SELECT value FROM server_secrets WHERE name = $1`, { bind: [name] });
  return Buffer.from((rows as Array<{ value: string }>)[0].value, 'base64url');
}
