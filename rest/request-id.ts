import type { NextFunction, Request, Response } from 'express';
import { newId } from '../core/ids.ts';

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
  }
}

const SAFE = /^[A-Za-z0-9._-]{8,80}$/;

// Unique across processes by a random prefix, then a counter: no random bytes per request.
const prefix = newId('req', 8);
let counter = 0;

/** Every response carries X-Request-Id; a caller's own id is kept when it is safe to echo. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  req.requestId = typeof given === 'string' && SAFE.test(given) ? given : `${prefix}${(counter++).toString(36)}`;
  res.setHeader('X-Request-Id', req.requestId);
  next();
}
