import type { Request, Response, NextFunction, RequestHandler } from 'express';
import { rateLimit, ipKeyGenerator, type Store, type Options, type IncrementResponse } from 'express-rate-limit';
import type pg from 'pg';
import { RateLimitedError } from './errors.ts';

/**
 * Fixed-window counters in Postgres, so every server process shares them (SPEC 8's buckets
 * are per route and per client IP over 60 seconds). The prune_rate_limits job drops old windows.
 */
export class PostgresRateLimitStore implements Store {
  prefix: string;
  private windowMs = 60_000;
  private pool: pg.Pool;

  constructor(pool: pg.Pool, prefix: string) {
    this.pool = pool;
    this.prefix = prefix;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  private window(): Date {
    return new Date(Math.floor(Date.now() / this.windowMs) * this.windowMs);
  }

  async increment(key: string): Promise<IncrementResponse> {
    const start = this.window();
    const { rows } = await this.pool.query<{ hits: number }>(
      `INSERT INTO rate_limit_hits (key, window_start, hits) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_hits.hits + 1
       RETURNING hits`,
      [`${this.prefix}:${key}`, start],
    );
    return { totalHits: rows[0].hits, resetTime: new Date(start.getTime() + this.windowMs) };
  }

  async decrement(key: string): Promise<void> {
    await this.pool.query(`UPDATE rate_limit_hits SET hits = greatest(hits - 1, 0) WHERE key = $1 AND window_start = $2`, [`${this.prefix}:${key}`, this.window()]);
  }

  async resetKey(key: string): Promise<void> {
    await this.pool.query(`DELETE FROM rate_limit_hits WHERE key = $1`, [`${this.prefix}:${key}`]);
  }
}

/**
 * A per-IP limiter for one route. Sends SPEC 8's headers: the IETF draft headers, the
 * combined `RateLimit` header, `X-RateLimit-*` with the reset in Unix seconds, and
 * `Retry-After` on 429, whose body is the error envelope.
 */
export interface LimitOptions {
  windowMs?: number;
  /** What a bucket belongs to; default the client IP. Return null to not count the request. */
  key?: (req: Request) => string | null;
  /** Count only refused requests (SPEC 8's "rejected requests" lanes). */
  onlyFailures?: boolean;
  /** Count only accepted requests (SPEC 8's "accepted" lanes). */
  onlySuccesses?: boolean;
  /** `reason` in the 429 body. */
  reason?: string;
}

export function routeLimiter(pool: pg.Pool, name: string, limit: number, opts: LimitOptions = {}): RequestHandler {
  const windowMs = opts.windowMs ?? 60_000;
  const limiter = rateLimit({
    windowMs,
    limit,
    standardHeaders: 'draft-6',
    legacyHeaders: true,
    store: new PostgresRateLimitStore(pool, name),
    keyGenerator: (req) => opts.key?.(req) ?? ipKeyGenerator(req.ip ?? 'unknown'),
    skip: (req) => (opts.key ? opts.key(req) === null : false),
    skipSuccessfulRequests: opts.onlyFailures ?? false,
    skipFailedRequests: opts.onlySuccesses ?? false,
    handler: (_req: Request, _res: Response, next: NextFunction, options) => {
      next(new RateLimitedError(`Too many requests: at most ${options.limit} per ${Math.round(windowMs / 1000)} seconds`, {
        code: 'rate_limited',
        details: { reason: opts.reason ?? 'ip_throttle' },
      }));
    },
  });
  return (req, res, next) => {
    limiter(req, res, (err?: unknown) => {
      const remaining = res.getHeader('RateLimit-Remaining');
      const reset = res.getHeader('RateLimit-Reset');
      if (remaining !== undefined && reset !== undefined) {
        res.setHeader('RateLimit', `limit=${limit}, remaining=${remaining}, reset=${reset}`);
      }
      next(err);
    });
  };
}
