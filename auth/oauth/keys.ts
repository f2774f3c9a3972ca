import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Sql } from '../../core/tx.ts';

/** Old keys stay published (and accepted) after a rotation until two newer ones exist. */
const KEEP = 3;

async function newKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `es256-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`, alg: 'ES256', use: 'sig' };
}

async function read(sql: Sql): Promise<JWK[] | null> {
  const row = (await sql.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'oauth_signing_jwks'`)).rows[0];
  return row ? (JSON.parse(row.value) as JWK[]) : null;
}

/** The signing keys, newest first (the newest signs); created on first use, kept in the database. */
export async function signingKeys(sql: Sql): Promise<JWK[]> {
  const existing = await read(sql);
  if (existing?.length) return existing;
  await sql.query(`INSERT INTO server_secrets (name, value) VALUES ('oauth_signing_jwks', $1) ON CONFLICT (name) DO NOTHING`, [JSON.stringify([await newKey()])]);
  return (await read(sql))!;
}

/** Adds a new signing key in front; servers sign with it once restarted, and still accept the previous ones. */
export async function rotateSigningKey(sql: Sql): Promise<{ kid: string; kept: number }> {
  const keys = await signingKeys(sql);
  const next = [await newKey(), ...keys].slice(0, KEEP);
  await sql.query(`UPDATE server_secrets SET value = $1 WHERE name = 'oauth_signing_jwks'`, [JSON.stringify(next)]);
  return { kid: next[0].kid!, kept: next.length };
}
