import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../core/logger.ts';
import { AppError, ForbiddenError, NotFoundError, PayloadTooLargeError, ValidationError, internalEnvelope, toEnvelope } from '../core/errors.ts';
import { fromDatabaseError, pgDiagnostics } from '../core/db-errors.ts';

/**
 * body-parser / raw-body error types (`err.type`). Those a client causes are 4xx; the two
 * `stream.*` ones mean a body was read twice, a server fault that still gets a typed answer.
 */
const bodyErrors: Record<string, (err: { limit?: unknown }) => AppError> = {
  'entity.parse.failed': () => new ValidationError('Malformed JSON in request body', { code: 'malformed_json' }),
  'entity.too.large': (err) =>
    new PayloadTooLargeError(`Request body is too large${typeof err.limit === 'number' ? `: this route takes at most ${sizeOf(err.limit)}` : ''}`, {
      action: 'Send less in one request; a transcript file goes to POST P/sessions/import-transcript as multipart (up to 5 MiB), a recording to the upload routes',
    }),
  'entity.verify.failed': () => new ForbiddenError('The request body failed verification', { code: 'body_verification_failed' }),
  'encoding.unsupported': () => new AppError(415, 'Unsupported Content-Encoding', { code: 'unsupported_encoding' }),
  'charset.unsupported': () => new AppError(415, 'Unsupported request body charset', { code: 'unsupported_charset' }),
  'request.aborted': () => new ValidationError('The request was aborted before its body arrived', { code: 'request_aborted' }),
  'request.size.invalid': () => new ValidationError('The body length does not match Content-Length', { code: 'request_size_invalid' }),
  'parameters.too.many': () => new PayloadTooLargeError('Too many form parameters', { code: 'parameters_too_many' }),
  'stream.encoding.set': () => new AppError(500, 'The request body could not be read', { code: 'body_unreadable' }),
  'stream.not.readable': () => new AppError(500, 'The request body could not be read', { code: 'body_unreadable' }),
};

const sizeOf = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`);

/** Normalises what routing, body parsers, the database and handlers throw into the typed hierarchy. */
export function asAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  // Express decoding a path parameter with a malformed %-escape sets status 400; any other URIError is
  // our decodeURIComponent of some other input (a header, a form value).
  if (err instanceof URIError) {
    return (err as { status?: number }).status === 400
      ? new ValidationError('The path holds a malformed percent-escape', { code: 'malformed_path' })
      : new ValidationError('The request holds a malformed percent-escape', { code: 'malformed_escape' });
  }
  const type = (err as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && bodyErrors[type]) return bodyErrors[type](err as { limit?: unknown });
  const db = fromDatabaseError(err);
  if (db) return db;
  // Any other http-errors client error (status 4xx, message meant for the client).
  const e = err as { status?: unknown; expose?: unknown; message?: unknown } | null;
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true) {
    return new AppError(e.status, String(e.message), { code: 'invalid_request' });
  }
  return null;
}

export function sendError(res: Response, err: unknown, requestId: string, log: Logger): void {
  const known = asAppError(err);
  if (!known) {
    // Postgres's detail can hold a whole row ("Failing row contains ..."): log what and where, not the values.
    const pg = pgDiagnostics(err);
    const postgres = pg ? { code: pg.code, message: pg.message, constraint: pg.constraint, table: pg.table, column: pg.column } : undefined;
    log.error('unhandled error', { requestId, error: err instanceof Error ? err.stack ?? err.message : String(err), ...(postgres ? { postgres } : {}) });
  } else if (known.status >= 500) {
    // The access log writes this answer's line (at warn) and carries the reason with it.
    res.locals.failure = { code: known.code, error: known.message };
  }
  if (res.headersSent) return void res.end();
  if (known?.headers) for (const [k, v] of Object.entries(known.headers)) res.setHeader(k, v);
  res.status(known ? known.status : 500).json(known ? toEnvelope(known, requestId) : internalEnvelope(requestId));
}

export function errorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => sendError(res, err, req.requestId, log);
}

export function apiNotFound(req: Request, res: Response, next: NextFunction): void {
  next(new NotFoundError(`No route for ${req.method} ${req.originalUrl.split("?")[0]}`, { code: 'route_not_found' }));
}
