import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';

/** A request handler or, taking four arguments as in Express, an error handler. */
export type Layer = RequestHandler | ErrorRequestHandler;

/** The capability routes read most: everything under /api/orgs/, and the health check. */
export const isHotPath = (path: string): boolean => path.startsWith('/api/orgs/') || path === '/api/health';

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * The server's request listener. A request for which `layersFor` has layers runs them in order,
 * as Express would (an error skips to the next error handler); any other request goes to `app`.
 * Express's router walks the app's layers on every request, and for the hot routes that walk
 * cost more than the route itself (docs/performance.md). What Express sets up for every request
 * is kept: its request and response prototypes (so settings such as `trust proxy` and the query
 * parser apply), `res.locals`, `req.originalUrl` and the circular references.
 */
export function withHotPath(app: Express, layersFor: (path: string, method: string) => Layer[] | null): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const layers = layersFor(pathOf(url), req.method ?? '');
    if (!layers) return void app(req, res);
    const request = Object.setPrototypeOf(req, app.request) as Request;
    const response = Object.setPrototypeOf(res, app.response) as Response;
    request.res = response;
    response.req = request;
    response.locals = Object.create(null) as Response['locals'];
    request.originalUrl = url;
    request.baseUrl = '';
    let i = 0;
    const next: NextFunction = (err?: unknown) => {
      const layer = layers[i++];
      if (!layer) {
        // Every list ends in an error handler that answers; this is only a safety net.
        if (!response.headersSent) response.statusCode = 500;
        return void response.end();
      }
      const handlesErrors = layer.length === 4;
      if (Boolean(err) !== handlesErrors) return next(err);
      try {
        const out = (err ? (layer as ErrorRequestHandler)(err, request, response, next) : (layer as RequestHandler)(request, response, next)) as unknown;
        if (out instanceof Promise) out.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}
