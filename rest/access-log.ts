import type { NextFunction, Request, Response } from 'express';
import { redactText, type Logger } from '../core/logger.ts';

type Level = 'debug' | 'info' | 'warn' | 'error';

/** Health checks are debug; 500 is an error; 502/503/504 are expected answers (a dependency is down), already explained in the body. */
function levelOf(path: string, status: number): Level {
  if (path === '/api/health') return 'debug';
  if (status === 500) return 'error';
  return status > 500 ? 'warn' : 'info';
}

const STARTED = Symbol('access-log started');

/**
 * One access-log record per response, after `requestId`:
 * `{"level":"info","requestId":"req_…","method":"GET","path":"/api/…","status":200,"duration_ms":3,"msg":"GET /api/… 200"}`.
 * Secret query values are redacted from the path; no headers are logged. Nothing is built for a
 * record whose level is off, so the log costs a timestamp and one shared listener per request.
 */
export function accessLog(log: Logger) {
  function onClose(this: Response & { [STARTED]?: number }) {
    const req = this.req;
    const url = req.originalUrl ?? req.url ?? '';
    const level = levelOf(url.split('?', 1)[0], this.statusCode);
    if (!log.enabled(level)) return;
    const path = redactText(url);
    log[level](`${req.method} ${path.split('?', 1)[0]} ${this.statusCode}${this.writableFinished ? '' : ' (aborted)'}`, {
      requestId: req.requestId,
      method: req.method,
      path,
      status: this.statusCode,
      duration_ms: Math.round(performance.now() - (this[STARTED] ?? 0)),
      // A known 5xx (a provider or dependency down) says why, as the error handler left it.
      ...(this.locals?.failure as Record<string, unknown> | undefined),
    });
  }
  return (_req: Request, res: Response & { [STARTED]?: number }, next: NextFunction) => {
    res[STARTED] = performance.now();
    res.on('close', onClose);
    next();
  };
}
