import path from 'node:path';

export interface Config {
  environment: string;
  host: string;
  port: number;
  /** Public base address; derived from host and port unless BASE_URL is set. */
  baseUrl: string | null;
  dataDir: string;
  databaseUrl: string | null;
  /** Port of the embedded Postgres when DATABASE_URL is not set. */
  embeddedPgPort: number;
  worker: boolean;
  encryptionKey: string | null;
  encryptionKeysPrevious: string[];
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Express `trust proxy`: false, a hop count, or a list of addresses (TRUST_PROXY). */
  trustProxy: boolean | number | string;
}

function trustProxyFrom(value: string | undefined): Config['trustProxy'] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = (env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info')) as Config['logLevel'];
  return {
    environment: env.NODE_ENV ?? 'development',
    host: env.HOST ?? '127.0.0.1',
    port: intFrom(env.PORT, 3000, 'PORT'),
    baseUrl: env.BASE_URL ? env.BASE_URL.replace(/\/+$/, '') : null,
    dataDir: path.resolve(env.DATA_DIR ?? './.data'),
    databaseUrl: env.DATABASE_URL || null,
    embeddedPgPort: intFrom(env.EMBEDDED_PG_PORT, 54329, 'EMBEDDED_PG_PORT'),
    worker: (env.WORKER ?? 'on').toLowerCase() !== 'off',
    encryptionKey: env.ENCRYPTION_KEY || null,
    encryptionKeysPrevious: (env.ENCRYPTION_KEYS_PREVIOUS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    logLevel,
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
  };
}
