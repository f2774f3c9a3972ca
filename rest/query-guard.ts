import type { NextFunction, Request, Response } from 'express';
import { refuseUnsafeText } from '../core/input-guard.ts';

/** The request's query values. `req.query` parses the query string on every read, so only when there is one. */
export function queryOf(req: Request): Request['query'] {
  return req.url.includes('?') ? req.query : {};
}

/** Query values reach lookups on every route (SDK keys, OAuth, sign-in): no text Postgres cannot hold. */
export function queryGuard(req: Request, _res: Response, next: NextFunction): void {
  let refused: unknown;
  try {
    refuseUnsafeText(queryOf(req));
  } catch (err) {
    refused = err;
  }
  next(refused);
}
