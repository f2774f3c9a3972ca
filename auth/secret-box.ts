import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Logger } from '../core/logger.ts';
import { UnavailableError } from '../core/errors.ts';

/**
 * AES-256-GCM for secrets at rest. Each value is stored with the id of the key that sealed
 * it, and bound to its owner (the project id) as associated data, so a ciphertext copied
 * to another project does not open. Previous keys still open old values after rotation.
 */
export interface SecretBox {
  readonly available: boolean;
  readonly source: 'env' | 'file' | 'none';
  seal(plaintext: string, aad: string): { keyId: string; ciphertext: string };
  open(sealed: { keyId: string; ciphertext: string }, aad: string): string;
}

export function parseKey(raw: string): Buffer | null {
  const s = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) {
    const buf = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (buf.length === 32) return buf;
  }
  return null;
}

const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 12);

export function createSecretBox(current: Buffer | null, previous: Buffer[], source: SecretBox['source']): SecretBox {
  const ring = new Map<string, Buffer>();
  for (const k of [...previous, ...(current ? [current] : [])]) ring.set(keyIdOf(k), k);
  const missing = () =>
    new UnavailableError('Secrets cannot be stored: the encryption key is missing or invalid', {
      code: 'encryption_key_unavailable',
      retryable: false,
      action: 'Set ENCRYPTION_KEY to 32 bytes (64 hex characters or base64) and restart',
    });
  return {
    available: current !== null,
    source,
    seal(plaintext, aad) {
      if (!current) throw missing();
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
        action: 'Add the old key to ENCRYPTION_KEYS_PREVIOUS, or set the secret again',
      });
      const raw = Buffer.from(ciphertext, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * ENCRYPTION_KEY when set (refused with a warning if malformed); otherwise, for local use,
 * a key generated once into DATA_DIR/encryption.key.
 */
export function loadSecretBox(opts: { envKey: string | null; previous: string[]; dataDir: string; log: Logger }): SecretBox {
  const previous = opts.previous.map(parseKey).filter((k): k is Buffer => k !== null);
  if (opts.envKey) {
    const key = parseKey(opts.envKey);
    if (!key) {
      opts.log.warn('ENCRYPTION_KEY is not 32 bytes in hex or base64: secrets cannot be stored until it is fixed');
      return createSecretBox(null, previous, 'none');
    }
    return createSecretBox(key, previous, 'env');
  }
  const file = path.join(opts.dataDir, 'encryption.key');
  let key: Buffer | null = fs.existsSync(file) ? parseKey(fs.readFileSync(file, 'utf8')) : null;
  if (!key) {
    key = randomBytes(32);
    fs.mkdirSync(opts.dataDir, { recursive: true });
    fs.writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
    opts.log.warn(`ENCRYPTION_KEY is not set: generated a local key in ${file}. Set ENCRYPTION_KEY in production and keep it safe.`);
  }
  return createSecretBox(key, previous, 'file');
}
