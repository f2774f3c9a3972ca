import type { NextFunction, Request, Response } from 'express';
import { refuseUnsafeText } from '../core/input-guard.ts';

/**
 * Query values reach lookups on every route (SDK keys, OAuth, sign-in): no text Postgres
 * cannot hold. `req.query` parses the query string on every read, so only when there is one.
 */
export function queryGuard(req: Request, _res: Response, next: NextFunction): void {
  if (!req.url.includes('?')) return next();
  let refused: unknown;
  try {
    refuseUnsafeText(req.query);
  } catch (err) {
    refused = err;
  }
  next(refused);
}
