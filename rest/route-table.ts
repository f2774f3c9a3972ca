import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';

interface Route {
  match: MatchFunction<Record<string, string>>;
  handlers: RequestHandler[];
}

/** As Express decodes a path parameter: a malformed escape is a URIError with status 400 (rest/errors.ts maps it). */
function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (err) {
    if (err instanceof URIError) Object.assign(err, { status: 400, statusCode: 400 });
    throw err;
  }
}

const segmentsOf = (path: string) => {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  let n = 0;
  for (let i = 0; i < trimmed.length; i++) if (trimmed.charCodeAt(i) === 47) n++;
  return n;
};

/**
 * The capability routes, matched as Express's router would (case-insensitive, an optional
 * trailing slash, HEAD served by GET, first added wins) but looked up by method and number of
 * path segments, so a request tries the handful of routes of its shape instead of all 200.
 * Parameters never hold a `/`, so a route only ever matches paths with its own segment count.
 */
export class RouteTable {
  private buckets = new Map<string, Route[]>();

  add(method: string, path: string, handlers: RequestHandler[]): void {
    const key = `${method.toUpperCase()} ${segmentsOf(path)}`;
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = []));
    bucket.push({ match: match(path, { sensitive: false, end: true, trailing: true, decode: decodeParam }), handlers });
  }

  handler(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const path = req.path;
      const bucket = this.buckets.get(`${method} ${segmentsOf(path)}`);
      if (!bucket) return next();
      let found: { route: Route; params: Record<string, string> } | null = null;
      try {
        for (const route of bucket) {
          const m = route.match(path);
          if (m) {
            found = { route, params: m.params };
            break;
          }
        }
      } catch (err) {
        return next(err);
      }
      if (!found) return next();
      req.params = found.params;
      const { handlers } = found.route;
      let i = 0;
      const step = (err?: unknown): void => {
        if (err !== undefined && err !== null) return next(err);
        const h = handlers[i++];
        if (!h) return next();
        try {
          const out = h(req, res, step) as unknown;
          if (out instanceof Promise) out.catch(next);
        } catch (e) {
          next(e);
        }
      };
      step();
    };
  }
}
