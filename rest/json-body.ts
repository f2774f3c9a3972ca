import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { refuseDeepJson } from '../core/input-guard.ts';

/**
 * `express.json` with a depth cap checked right after parsing, so nothing that recurses
 * (zod, JSON.stringify, pg) ever sees 10,000 levels.
 */
export function jsonBody(limit: number | string): RequestHandler {
  const parse = express.json({ limit, type: ['application/json', 'application/*+json'] });
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      try {
        refuseDeepJson(req.body);
      } catch (depthErr) {
        return next(depthErr);
      }
      next();
    });
}

/** A body of another type read as text, to tell an empty one (no fields) from one that is not JSON. */
export function textBody(limit: number | string): RequestHandler {
  return express.text({ limit, type: () => true });
}
