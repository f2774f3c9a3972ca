import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../core/logger.ts';
import { AppError, NotFoundError, PayloadTooLargeError, ValidationError, internalEnvelope, toEnvelope } from '../core/errors.ts';

/** Normalises what body parsers and handlers throw into the typed hierarchy. */
export function asAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const type = (err as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return new ValidationError('Malformed JSON in request body', { code: 'malformed_json' });
  if (type === 'entity.too.large') return new PayloadTooLargeError('Request body is too large');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new ValidationError('Unsupported request body encoding');
  return null;
}

export function sendError(res: Response, err: unknown, requestId: string, log: Logger): void {
  const known = asAppError(err);
  if (!known) log.error('unhandled error', { requestId, error: err instanceof Error ? err.stack ?? err.message : String(err) });
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
