import type { Logger } from '../core/logger.ts';
import type { Sql } from '../core/tx.ts';
import { EncryptionKeyError, loadSecretBox, type SecretBox } from './secret-box.ts';

/**
 * Every process on one database must seal and open secrets with the same key. The first
 * start seals a known value (the canary) into server_secrets; every start opens it, and a
 * process whose keys cannot is refused before it runs with a key that silently loses secrets.
 */
const CANARY = 'encryption_canary';
const AAD = 'verbatim:encryption_canary';
const PLAINTEXT = 'verbatim encryption canary v1';

type Sealed = { keyId: string; ciphertext: string };

/** Ids of the keys that sealed anything stored in the database (secrets and the canary). */
export async function sealedKeyIds(sql: Sql): Promise<string[]> {
  const { rows } = await sql.query<{ key_id: string }>(
    `SELECT key_id FROM project_settings WHERE key_id IS NOT NULL
     UNION SELECT token_key_id FROM tracker_connections
     UNION SELECT token_key_id FROM user_identities WHERE token_key_id IS NOT NULL
     UNION SELECT value::jsonb->>'keyId' FROM server_secrets WHERE name = '${CANARY}'`,
  );
  return rows.map((r) => r.key_id).filter(Boolean);
}

async function readCanary(sql: Sql): Promise<{ raw: string; sealed: Sealed } | null> {
  const { rows } = await sql.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = $1`, [CANARY]);
  return rows.length ? { raw: rows[0].value, sealed: JSON.parse(rows[0].value) as Sealed } : null;
}

function whose(box: SecretBox): string {
  return box.source === 'env' ? 'ENCRYPTION_KEY' : 'the key in DATA_DIR/encryption.key (ENCRYPTION_KEY is not set)';
}

const FIX = 'Give every process on this database the same ENCRYPTION_KEY; after changing the key, add the old one to ENCRYPTION_KEYS_PREVIOUS.';

/** Loads this process's keys and proves them against the database, or throws EncryptionKeyError. */
export async function openSecretBox(
  sql: Sql,
  opts: { envKey: string | null; previous: string[]; dataDir: string; log: Logger },
): Promise<SecretBox> {
  const existing = await readCanary(sql);
  const sealedBefore = existing ? [] : await sealedKeyIds(sql);
  const box = loadSecretBox({ ...opts, mayGenerate: !existing && sealedBefore.length === 0 });

  if (!existing) {
    // A database from before the canary: its secrets tell which key is the right one.
    if (sealedBefore.length && !sealedBefore.some((id) => box.knows(id))) {
      throw new EncryptionKeyError(`${whose(box)} opens none of the secrets stored in this database (sealed with key ${sealedBefore.join(', ')}). ${FIX}`);
    }
    await sql.query(`INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [CANARY, JSON.stringify(box.seal(PLAINTEXT, AAD))]);
  }
  const canary = (await readCanary(sql))!;
  let opened = false;
  try {
    opened = box.open(canary.sealed, AAD) === PLAINTEXT;
  } catch {
    opened = false;
  }
  if (!opened) {
    throw new EncryptionKeyError(
      `${whose(box)} is not the encryption key of this database: it cannot open the check value sealed with key ${canary.sealed.keyId} by another process, ` +
        `so it could not read the secrets (model keys, integration tokens) those processes stored. ${FIX}`,
    );
  }
  if (canary.sealed.keyId !== box.keyId) {
    // Opened with a previous key: the current key takes over (only if nobody changed it meanwhile).
    await sql.query(`UPDATE server_secrets SET value = $2 WHERE name = $1 AND value = $3`, [CANARY, JSON.stringify(box.seal(PLAINTEXT, AAD)), canary.raw]);
    opts.log.info('encryption check re-sealed with the current ENCRYPTION_KEY', { previous_key_id: canary.sealed.keyId, key_id: box.keyId });
  }
  return box;
}
