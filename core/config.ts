import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { S3Config } from './storage/s3.ts';
import { LOG_LEVELS, type LogLevel } from './logger.ts';

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
  /** Jobs one worker process runs at once (WORKER_CONCURRENCY; default from the machine's cores). */
  workerConcurrency: number;
  encryptionKey: string | null;
  encryptionKeysPrevious: string[];
  logLevel: LogLevel;
  /** Express `trust proxy`: false, a hop count, or a list of addresses (TRUST_PROXY). */
  trustProxy: boolean | number | string;
  storage: { kind: 'local' } | { kind: 's3'; s3: S3Config };
  /** Operator-wide model endpoints; a project's own openai_api_key takes precedence. */
  models: {
    transcriptionUrl: string | null;
    transcriptionKey: string | null;
    transcriptionModel: string;
    /** `on` (default): with no transcription service, recordings are transcribed on this machine (English, tools/interviews/local-transcription.ts). */
    localTranscription: boolean;
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
  /** How long a spoken answer may take to transcribe before the participant is told to retry or type. */
  voiceAnswerTimeoutSeconds: number;
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

const check = (ok: (v: string) => boolean, what: string, echo = true) =>
  z.string().refine(ok, { error: (iss) => `must be ${what}${echo ? `, got "${String(iss.input)}"` : ''}` }).optional();
const text = z.string().optional();
const port = check((v) => /^\d{1,5}$/.test(v) && Number(v) <= 65535, 'an integer 0-65535');
const seconds = check((v) => /^\d{1,9}$/.test(v), 'a whole number of seconds');
const oneOf = <T extends string>(values: readonly T[]) =>
  check((v) => values.includes(v.toLowerCase() as T), `one of ${values.join(', ')}`).transform((v) => v?.toLowerCase() as T | undefined);
const bool = oneOf(['true', 'false'] as const).transform((v) => (v === undefined ? undefined : v === 'true'));
const isUrl = (v: string, protocols: RegExp) => URL.canParse(v) && protocols.test(new URL(v).protocol);
const httpUrl = check((v) => isUrl(v, /^https?:$/), 'an absolute http(s) URL');
// May carry a password: never echoed.
const smtpUrl = check((v) => isUrl(v, /^smtps?:$/), 'an smtp:// or smtps:// URL', false);

const linkingVars = (prefix: 'CODEHOST' | 'TRACKER') => ({
  [`${prefix}_CLIENT_ID`]: text,
  [`${prefix}_CLIENT_SECRET`]: text,
  [`${prefix}_AUTHORIZE_URL`]: httpUrl,
  [`${prefix}_TOKEN_URL`]: httpUrl,
  [`${prefix}_API_URL`]: httpUrl,
  [`${prefix}_SCOPE`]: text,
});

/** Every environment variable the service reads (README, Configuration), checked once at start. */
const EnvSchema = z
  .object({
    NODE_ENV: text,
    HOST: text,
    PORT: port,
    BASE_URL: httpUrl,
    DATA_DIR: text,
    DATABASE_URL: text,
    EMBEDDED_PG_PORT: port,
    WORKER: oneOf(['on', 'off']),
    WORKER_CONCURRENCY: check((v) => /^\d{1,3}$/.test(v) && Number(v) >= 1, 'a whole number from 1'),
    ENCRYPTION_KEY: text, // its format is checked where it is used (auth/secret-box.ts)
    ENCRYPTION_KEYS_PREVIOUS: text,
    LOG_LEVEL: oneOf(LOG_LEVELS),
    TRUST_PROXY: text,
    STORAGE: oneOf(['local', 's3']),
    S3_BUCKET: text,
    S3_REGION: text,
    S3_ENDPOINT: httpUrl,
    S3_ACCESS_KEY_ID: text,
    S3_SECRET_ACCESS_KEY: text,
    S3_FORCE_PATH_STYLE: bool,
    TRANSCRIPTION_URL: httpUrl,
    TRANSCRIPTION_API_KEY: text,
    TRANSCRIPTION_MODEL: text,
    LOCAL_TRANSCRIPTION: oneOf(['on', 'off']),
    LLM_API_KEY: text,
    LLM_BASE_URL: httpUrl,
    LLM_MODEL: text,
    FFMPEG_PATH: text,
    FFPROBE_PATH: text,
    SMTP_URL: smtpUrl,
    MAIL_FROM: text,
    OIDC_ISSUER: httpUrl,
    OIDC_CLIENT_ID: text,
    OIDC_CLIENT_SECRET: text,
    ALLOWED_ORIGINS: text,
    CONDUCTOR_GRACE_SECONDS: seconds,
    VOICE_ANSWER_TIMEOUT_SECONDS: seconds,
    REALTIME_MODEL: text,
    CODEHOST_APP_ID: text,
    CODEHOST_APP_PRIVATE_KEY: text,
    CODEHOST_APP_SLUG: text,
    CODEHOST_APP_URL: httpUrl,
    CODEHOST_WEBHOOK_SECRET: text,
    TRACKER_WEBHOOK_SECRET: text,
    ...linkingVars('CODEHOST'),
    ...linkingVars('TRACKER'),
    OUTBOUND_ALLOW_LOOPBACK: bool,
    BILLING: oneOf(['credits', 'off']),
    BILLING_WEBHOOK_SECRET: text,
  })
  .superRefine((env, ctx) => {
    if (env.STORAGE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE=s3 (with S3_REGION, S3_ENDPOINT for non-AWS stores, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)' });
    }
  });
type Env = z.output<typeof EnvSchema> & Record<string, string | undefined>;

/** Thrown by loadConfig; its message names every bad variable, one per line. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** A variable that is set but empty counts as unset. */
function parseEnv(raw: NodeJS.ProcessEnv): Env {
  const set = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(set);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)));
  }
  return { ...set, ...parsed.data } as Env;
}

function linkingFrom(env: Env, prefix: 'CODEHOST' | 'TRACKER', d: Omit<LinkingApp, 'clientId' | 'clientSecret'>): LinkingApp {
  return {
    clientId: env[`${prefix}_CLIENT_ID`] || null,
    clientSecret: env[`${prefix}_CLIENT_SECRET`] || null,
    authorizeUrl: env[`${prefix}_AUTHORIZE_URL`] || d.authorizeUrl,
    tokenUrl: env[`${prefix}_TOKEN_URL`] || d.tokenUrl,
    apiUrl: (env[`${prefix}_API_URL`] || d.apiUrl).replace(/\/+$/, ''),
    scope: env[`${prefix}_SCOPE`] || d.scope,
  };
}

function storageFrom(env: Env): Config['storage'] {
  if (env.STORAGE !== 's3') return { kind: 'local' };
  return {
    kind: 's3',
    s3: {
      bucket: env.S3_BUCKET!,
      region: env.S3_REGION ?? 'us-east-1',
      endpoint: env.S3_ENDPOINT || null,
      accessKeyId: env.S3_ACCESS_KEY_ID || null,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
      forcePathStyle: env.S3_FORCE_PATH_STYLE ?? !!env.S3_ENDPOINT,
    },
  };
}

/**
 * The worker shares one event loop with HTTP and its steps mostly wait on Postgres, so it needs
 * several jobs in flight per core (Postgres's parallelism) to take its share of a burst of
 * imports: on 2 cores, 12 kept each interview's evidence within a second of its import, where
 * 2 left the median interview 7 s behind.
 */
export function defaultWorkerConcurrency(cores = os.availableParallelism()): number {
  return Math.min(16, Math.max(4, cores * 6));
}

function trustProxyFrom(value: string | undefined): Config['trustProxy'] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(raw: NodeJS.ProcessEnv = process.env): Config {
  const env = parseEnv(raw);
  return {
    environment: env.NODE_ENV ?? 'development',
    host: env.HOST ?? '127.0.0.1',
    port: env.PORT ? Number(env.PORT) : 3000,
    baseUrl: env.BASE_URL ? env.BASE_URL.replace(/\/+$/, '') : null,
    dataDir: path.resolve(env.DATA_DIR ?? './.data'),
    databaseUrl: env.DATABASE_URL || null,
    embeddedPgPort: env.EMBEDDED_PG_PORT ? Number(env.EMBEDDED_PG_PORT) : 54329,
    worker: env.WORKER !== 'off',
    workerConcurrency: env.WORKER_CONCURRENCY ? Number(env.WORKER_CONCURRENCY) : defaultWorkerConcurrency(),
    encryptionKey: env.ENCRYPTION_KEY || null,
    encryptionKeysPrevious: (env.ENCRYPTION_KEYS_PREVIOUS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    storage: storageFrom(env),
    models: {
      transcriptionUrl: env.TRANSCRIPTION_URL?.replace(/\/+$/, '') || null,
      transcriptionKey: env.TRANSCRIPTION_API_KEY || null,
      transcriptionModel: env.TRANSCRIPTION_MODEL || 'whisper-1',
      localTranscription: env.LOCAL_TRANSCRIPTION !== 'off',
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
    conductorGraceSeconds: env.CONDUCTOR_GRACE_SECONDS ? Number(env.CONDUCTOR_GRACE_SECONDS) : 300,
    voiceAnswerTimeoutSeconds: env.VOICE_ANSWER_TIMEOUT_SECONDS ? Number(env.VOICE_ANSWER_TIMEOUT_SECONDS) : 60,
    realtimeModel: env.REALTIME_MODEL || 'gpt-realtime',
    integrations: {
      codehostAppId: env.CODEHOST_APP_ID || null,
      codehostAppPrivateKey: env.CODEHOST_APP_PRIVATE_KEY?.replace(/\\n/g, '\n') || null,
      codehostAppSlug: env.CODEHOST_APP_SLUG || null,
      codehostAppUrl: (env.CODEHOST_APP_URL || 'https://github.com').replace(/\/+$/, ''),
      codehostWebhookSecret: env.CODEHOST_WEBHOOK_SECRET || null,
      trackerWebhookSecret: env.TRACKER_WEBHOOK_SECRET || null,
    },
    outboundAllowLoopback: env.OUTBOUND_ALLOW_LOOPBACK ?? false,
    billingWebhookSecret: env.BILLING_WEBHOOK_SECRET?.trim() || null,
    billing: env.BILLING ?? 'credits',
  };
}
