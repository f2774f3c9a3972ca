import path from 'node:path';
import type { S3Config } from './storage/s3.ts';

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
  storage: { kind: 'local' } | { kind: 's3'; s3: S3Config };
  /** Operator-wide model endpoints; a project's own openai_api_key takes precedence. */
  models: {
    transcriptionUrl: string | null;
    transcriptionKey: string | null;
    transcriptionModel: string;
    llmUrl: string | null;
    llmKey: string | null;
    llmModel: string;
  };
  ffmpegPath: string | null;
  ffprobePath: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** Extra browser origins allowed to call /mcp (ALLOWED_ORIGINS, comma-separated). */
  allowedOrigins: string[];
  /** How long a live interview waits for its participant to reconnect before it is ended and processed. */
  conductorGraceSeconds: number;
  /** Let outbound page fetches (widget checks, listing previews) reach loopback addresses: tests and local development only. */
  outboundAllowLoopback: boolean;
  /** Delivery integrations: the code-host app (GitHub App) and the webhook secrets of code host and tracker. */
  integrations: {
    codehostAppId: string | null;
    codehostAppPrivateKey: string | null;
    codehostAppSlug: string | null;
    /** Where people install the app: `{url}/apps/{slug}/installations/new`. */
    codehostAppUrl: string;
    codehostWebhookSecret: string | null;
    trackerWebhookSecret: string | null;
  };
  /** Model of the OpenAI-compatible realtime service behind the widget's voice mode. */
  realtimeModel: string;
  /** Sign-in through an OpenID provider (Google by default). */
  signIn: { issuer: string; clientId: string | null; clientSecret: string | null };
  /** OAuth apps used to link a code-host and a tracker identity to an account. */
  linking: Record<'codehost' | 'tracker', LinkingApp>;
  /** `credits` (default): interviews spend credits and are refused with 402 past the balance or cap; `off`: nothing is refused (usage is still recorded). */
  billing: 'credits' | 'off';
  /** Standard Webhooks signing secrets (`whsec_...`) of the billing provider, space- or comma-separated for rotation. */
  billingWebhookSecret: string | null;
}

export interface LinkingApp {
  clientId: string | null;
  clientSecret: string | null;
  authorizeUrl: string;
  tokenUrl: string;
  /** Code host: REST `GET {apiUrl}/user`; tracker: GraphQL `POST {apiUrl}/graphql` viewer. */
  apiUrl: string;
  scope: string;
}

function linkingFrom(env: NodeJS.ProcessEnv, prefix: 'CODEHOST' | 'TRACKER', d: Omit<LinkingApp, 'clientId' | 'clientSecret'>): LinkingApp {
  return {
    clientId: env[`${prefix}_CLIENT_ID`] || null,
    clientSecret: env[`${prefix}_CLIENT_SECRET`] || null,
    authorizeUrl: env[`${prefix}_AUTHORIZE_URL`] || d.authorizeUrl,
    tokenUrl: env[`${prefix}_TOKEN_URL`] || d.tokenUrl,
    apiUrl: (env[`${prefix}_API_URL`] || d.apiUrl).replace(/\/+$/, ''),
    scope: env[`${prefix}_SCOPE`] || d.scope,
  };
}

function storageFrom(env: NodeJS.ProcessEnv): Config['storage'] {
  if ((env.STORAGE ?? 'local') !== 's3') return { kind: 'local' };
  if (!env.S3_BUCKET) throw new Error('STORAGE=s3 needs S3_BUCKET (and S3_REGION, S3_ENDPOINT for non-AWS stores, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)');
  return {
    kind: 's3',
    s3: {
      bucket: env.S3_BUCKET,
      region: env.S3_REGION ?? 'us-east-1',
      endpoint: env.S3_ENDPOINT || null,
      accessKeyId: env.S3_ACCESS_KEY_ID || null,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
      forcePathStyle: (env.S3_FORCE_PATH_STYLE ?? (env.S3_ENDPOINT ? 'true' : 'false')) === 'true',
    },
  };
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
    storage: storageFrom(env),
    models: {
      transcriptionUrl: env.TRANSCRIPTION_URL?.replace(/\/+$/, '') || null,
      transcriptionKey: env.TRANSCRIPTION_API_KEY || null,
      transcriptionModel: env.TRANSCRIPTION_MODEL || 'whisper-1',
      llmUrl: env.LLM_BASE_URL?.replace(/\/+$/, '') || null,
      llmKey: env.LLM_API_KEY || null,
      llmModel: env.LLM_MODEL || 'gpt-4o-mini',
    },
    ffmpegPath: env.FFMPEG_PATH || null,
    ffprobePath: env.FFPROBE_PATH || null,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Verbatim <no-reply@verbatim.local>',
    linking: {
      codehost: linkingFrom(env, 'CODEHOST', { authorizeUrl: 'https://github.com/login/oauth/authorize', tokenUrl: 'https://github.com/login/oauth/access_token', apiUrl: 'https://api.github.com', scope: 'read:user' }),
      tracker: linkingFrom(env, 'TRACKER', { authorizeUrl: 'https://linear.app/oauth/authorize', tokenUrl: 'https://api.linear.app/oauth/token', apiUrl: 'https://api.linear.app', scope: 'read' }),
    },
    signIn: { issuer: env.OIDC_ISSUER || 'https://accounts.google.com', clientId: env.OIDC_CLIENT_ID || null, clientSecret: env.OIDC_CLIENT_SECRET || null },
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    conductorGraceSeconds: intFrom(env.CONDUCTOR_GRACE_SECONDS, 300, 'CONDUCTOR_GRACE_SECONDS'),
    realtimeModel: env.REALTIME_MODEL || 'gpt-realtime',
    integrations: {
      codehostAppId: env.CODEHOST_APP_ID || null,
      codehostAppPrivateKey: env.CODEHOST_APP_PRIVATE_KEY?.replace(/\\n/g, '\n') || null,
      codehostAppSlug: env.CODEHOST_APP_SLUG || null,
      codehostAppUrl: (env.CODEHOST_APP_URL || 'https://github.com').replace(/\/+$/, ''),
      codehostWebhookSecret: env.CODEHOST_WEBHOOK_SECRET || null,
      trackerWebhookSecret: env.TRACKER_WEBHOOK_SECRET || null,
    },
    outboundAllowLoopback: (env.OUTBOUND_ALLOW_LOOPBACK ?? '').toLowerCase() === 'true',
    billingWebhookSecret: env.BILLING_WEBHOOK_SECRET?.trim() || null,
    billing: (env.BILLING ?? 'credits').toLowerCase() === 'off' ? 'off' : 'credits',
  };
}
