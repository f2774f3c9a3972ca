import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Logger } from '../core/logger.ts';
import { UnavailableError } from '../core/errors.ts';
import { writeOnce } from '../core/write-once.ts';

/**
 * AES-256-GCM for secrets at rest. Each value is stored with the id of the key that sealed
 * it, and bound to its owner (the project id) as associated data, so a ciphertext copied
 * to another project does not open. Previous keys still open old values after rotation.
 */
export interface SecretBox {
  readonly source: 'env' | 'file';
  /** Id of the key that seals new values. */
  readonly keyId: string;
  /** Whether this box holds the key of that id (current or previous). */
  knows(keyId: string): boolean;
  seal(plaintext: string, aad: string): { keyId: string; ciphertext: string };
  open(sealed: { keyId: string; ciphertext: string }, aad: string): string;
}

/** A key this process cannot use: start is refused with this message. */
export class EncryptionKeyError extends Error {}

export function parseKey(raw: string): Buffer | null {
  const s = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) {
    const buf = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (buf.length === 32) return buf;
  }
  return null;
}

export const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 12);

export function createSecretBox(current: Buffer, previous: Buffer[], source: SecretBox['source']): SecretBox {
  const ring = new Map<string, Buffer>();
  for (const k of [...previous, current]) ring.set(keyIdOf(k), k);
  return {
    source,
    keyId: keyIdOf(current),
    knows: (keyId) => ring.has(keyId),
    seal(plaintext, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(aad));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return { keyId: keyIdOf(current), ciphertext: Buffer.concat([iv, tag, body]).toString('base64') };
    },
    open({ keyId, ciphertext }, aad) {
      const key = ring.get(keyId);
      if (!key) throw new UnavailableError('A stored secret was sealed with an encryption key this server does not have', {
        code: 'encryption_key_unknown',
        retryable: false,
        action: 'Give every process the same ENCRYPTION_KEY (add an old key to ENCRYPTION_KEYS_PREVIOUS), or set the secret again',
      });
      try {
        const raw = Buffer.from(ciphertext, 'base64');
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAAD(Buffer.from(aad));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        throw new UnavailableError('A stored secret does not open: it is damaged or belongs to another owner', {
          code: 'secret_unreadable',
          retryable: false,
          action: 'Set the secret again',
        });
      }
    },
  };
}

const KEY_FORMAT = '32 bytes written as 64 hex characters or base64 (e.g. `openssl rand -hex 32`)';

/**
 * ENCRYPTION_KEY when set; otherwise, for local use, the key in DATA_DIR/encryption.key,
 * generated on first use when `mayGenerate` (the database holds no secrets sealed by
 * another key). A malformed key anywhere refuses start: running on without the key would
 * silently lose every stored secret, and replacing a key file would lose them for good.
 */
export function loadSecretBox(opts: { envKey: string | null; previous: string[]; dataDir: string; log: Logger; mayGenerate?: boolean }): SecretBox {
  const previous = opts.previous.map((raw, i) => {
    const key = parseKey(raw);
    if (!key) throw new EncryptionKeyError(`ENCRYPTION_KEYS_PREVIOUS: entry ${i + 1} is not ${KEY_FORMAT}. Fix or remove it and start again.`);
    return key;
  });
  if (opts.envKey) {
    const key = parseKey(opts.envKey);
    if (!key) throw new EncryptionKeyError(`ENCRYPTION_KEY is not ${KEY_FORMAT}. Fix it and start again (every process needs the same key).`);
    return createSecretBox(key, previous, 'env');
  }
  const file = path.join(opts.dataDir, 'encryption.key');
  if (fs.existsSync(file)) {
    const key = parseKey(fs.readFileSync(file, 'utf8'));
    if (!key) {
      throw new EncryptionKeyError(
        `${file} does not hold a valid key (${KEY_FORMAT}); it was left as it is, because a new key would make every stored secret unreadable. ` +
          'Restore the file from a backup, or set ENCRYPTION_KEY to the key it held.',
      );
    }
    return createSecretBox(key, previous, 'file');
  }
  if (opts.mayGenerate === false) {
    throw new EncryptionKeyError(
      `ENCRYPTION_KEY is not set and ${file} does not exist, but this database already holds secrets sealed by another process's key. ` +
        "Set ENCRYPTION_KEY to the key every other process uses (a process without ENCRYPTION_KEY keeps it in its DATA_DIR/encryption.key).",
    );
  }
  const key = randomBytes(32);
  // Another process sharing DATA_DIR may have written it first: then use that one.
  if (!writeOnce(file, key.toString('hex') + '\n', 0o600)) return loadSecretBox(opts);
  opts.log.warn(`ENCRYPTION_KEY is not set: generated a local key in ${file}. Set ENCRYPTION_KEY in production and keep it safe.`);
  return createSecretBox(key, previous, 'file');
}
