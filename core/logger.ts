import { pino, stdTimeFunctions, type DestinationStream, type Logger as Pino } from 'pino';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
  /** Whether a record at `level` would be written (to skip building one that would not). */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
}

export const REDACTED = '[Redacted]';

/**
 * Field names whose values are secrets wherever they appear in a logged object (compared in
 * snake_case, so `clientSecret`, `client_secret` and `x-project-key` all match).
 */
const SECRET_FIELD = /^key$|(^|_)(authorization|cookie|password|passwd|passphrase|secret|secrets|token|credentials?|api_?key|private_key|access_key|encryption_key|signing_key|project_key|llm_key|transcription_key)$/;
/** Query parameters that carry secrets (project keys, tokens, OAuth codes) in a logged URL. */
const SECRET_QUERY = /([?&](?:key|token|session_token|access_token|refresh_token|id_token|code|code_verifier|client_secret|password|api_key|sig|x-amz-signature|x-amz-credential|logout_token|assertion)=)[^&#\s"']*/gi;
/** Path segments that are bearer secrets themselves: guest recording launch and viewing links. */
const SECRET_PATH = /(\/r\/view\/|\/r\/|\/api\/recordings\/)(?!view\/)[^/?#\s"']+/g;
const BEARER = /\b(Bearer|Basic)\s+[^\s"',]+/gi;

const isSecretField = (name: string) => SECRET_FIELD.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/-/g, '_').toLowerCase());

/** A URL or free text with bearer credentials and secret query values replaced. */
export function redactText(text: string): string {
  return text.replace(SECRET_QUERY, `$1${REDACTED}`).replace(SECRET_PATH, `$1${REDACTED}`).replace(BEARER, `$1 ${REDACTED}`);
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A copy of `value` with secret fields (at any depth) and secrets inside strings replaced. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (!isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = v != null && v !== '' && isSecretField(k) ? REDACTED : redact(v, depth + 1);
  return out;
}

type Writable = 'debug' | 'info' | 'warn' | 'error';

/**
 * A Logger over a pino instance made on first use: a child logger per request costs one small
 * object until something is actually written at an enabled level. A child has its root's level,
 * so the root answers whether a level is on without the child being made.
 */
class LazyLogger implements Logger {
  private made: Pino | null = null;
  private readonly make: () => Pino;
  private readonly root: Pino;

  constructor(make: () => Pino, root: Pino) {
    this.make = make;
    this.root = root;
  }

  private pino(): Pino {
    return (this.made ??= this.make());
  }

  private write(level: Writable, m: string, f?: Record<string, unknown>): void {
    if (this.root.isLevelEnabled(level)) this.pino()[level](f ?? {}, redactText(m));
  }

  debug(m: string, f?: Record<string, unknown>) {
    this.write('debug', m, f);
  }
  info(m: string, f?: Record<string, unknown>) {
    this.write('info', m, f);
  }
  warn(m: string, f?: Record<string, unknown>) {
    this.write('warn', m, f);
  }
  error(m: string, f?: Record<string, unknown>) {
    this.write('error', m, f);
  }
  enabled(level: Writable): boolean {
    return this.root.isLevelEnabled(level);
  }
  child(fields: Record<string, unknown>): Logger {
    return new LazyLogger(() => this.pino().child(redact(fields) as Record<string, unknown>), this.root);
  }
}

/**
 * One JSON object per line on stderr (stdout is kept for the command line's answers):
 * `{"level":"info","time":"…","pid":…,"msg":"…",…fields}`. Secrets are redacted from every
 * record. `destination` replaces stderr (tests capture records with it).
 */
export function createLogger(level: LogLevel = 'info', base: Record<string, unknown> = {}, destination?: DestinationStream): Logger {
  const root = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (obj) => redact(obj) as Record<string, unknown>,
      },
      // Objects pino serialises itself (requests, responses, errors) bypass the formatter above.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-project-key"]', 'res.headers["set-cookie"]', 'headers.authorization', 'headers.cookie', 'headers["x-project-key"]'],
        censor: REDACTED,
      },
    },
    destination ?? pino.destination({ dest: 2, sync: true }),
  );
  return new LazyLogger(() => (Object.keys(base).length ? root.child(redact(base) as Record<string, unknown>) : root), root);
}
