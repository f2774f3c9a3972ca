import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type Response, type Router } from 'express';
import type { Services } from '../core/context.ts';
import type { Logger } from '../core/logger.ts';
import { LocalStorage } from '../core/storage/local.ts';
import { AppError, PayloadTooLargeError } from '../core/errors.ts';
import { MediaMissingError } from '../core/storage/index.ts';

/** S3 takes parts up to 5 GiB; ours are far smaller, and this bounds one request. */
const MAX_PART_BYTES = 512 * 1024 * 1024;

/**
 * Streams a stored object as the response. A read that fails before the first byte is
 * answered with an error; one that fails later cuts the connection, since the length was
 * already promised. Either way the failure is this request's, never an unhandled 'error'.
 */
export async function sendObject(req: Request, res: Response, log: Logger, open: () => Promise<Readable>): Promise<void> {
  let body: Readable;
  try {
    body = await open();
    await once(body, 'readable');
  } catch (err) {
    if (err instanceof AppError) throw err; // e.g. media_missing from the storage driver
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new MediaMissingError();
    log.warn('stored object could not be read', { requestId: req.requestId, path: req.path, message: (err as Error).message });
    throw new AppError(503, 'The stored file could not be read; try again later', { code: 'storage_unavailable', retryable: true });
  }
  try {
    await pipeline(body, res);
  } catch (err) {
    // A client that hangs up is no news; a read that fails after the headers went out is.
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      log.warn('stored object read failed mid-way; connection cut', { requestId: req.requestId, path: req.path, message: (err as Error).message });
    }
  }
}

/** A single `bytes=` range within size; null when there is none (or several, answered whole). */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (!m[1] && !m[2])) return null;
  const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
  const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

const forbidden = () => new AppError(403, 'The link is invalid or has expired', { code: 'signed_url_invalid' });

/**
 * What an S3 presigned URL does, for the local store: GET an object, PUT an upload part.
 * Both are authorised by the URL's signature alone, so browsers and CLIs need no token.
 */
export function storageRoutes(services: Services): Router {
  const router = express.Router();
  const storage = services.storage;
  if (!(storage instanceof LocalStorage)) return router;

  router.get(/^\/api\/storage\/objects\/(.+)$/, async (req, res, next) => {
    try {
      const key = decodeURIComponent((req.params as Record<string, string>)[0]);
      const expires = Number(req.query.expires);
      if (!storage.verify(['GET', key], expires, String(req.query.sig ?? ''))) throw forbidden();
      const head = await storage.head(key);
      if (!head) throw new MediaMissingError();
      res.setHeader('Content-Type', head.contentType);
      res.setHeader('Cache-Control', 'private, max-age=60');
      res.setHeader('Accept-Ranges', 'bytes');
      if (typeof req.query.filename === 'string') res.attachment(req.query.filename);
      // One byte range, as S3 serves it: media players need it to seek.
      const range = byteRange(req.get('range'), head.size);
      if (range === 'unsatisfiable') {
        res.setHeader('Content-Range', `bytes */${head.size}`);
        return void res.status(416).end();
      }
      if (range) {
        res.status(206);
        res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${head.size}`);
        res.setHeader('Content-Length', String(range.end - range.start + 1));
        return await sendObject(req, res, services.log, () => storage.get(key, range));
      }
      res.setHeader('Content-Length', String(head.size));
      await sendObject(req, res, services.log, () => storage.get(key));
    } catch (err) {
      next(err);
    }
  });

  router.put('/api/storage/uploads/:uploadId/:partNumber', async (req, res, next) => {
    try {
      const { uploadId, partNumber } = req.params;
      const n = Number(partNumber);
      const key = await storage.uploadKey(uploadId);
      if (!key || !Number.isInteger(n) || n < 1 || n > 10_000) throw forbidden();
      if (!storage.verify(['PUT', key, uploadId, String(n)], Number(req.query.expires), String(req.query.sig ?? ''))) throw forbidden();
      try {
        const { etag } = await storage.putPart(uploadId, n, req, MAX_PART_BYTES);
        res.setHeader('ETag', etag);
        res.json({ part_number: n, etag });
      } catch (err) {
        if ((err as { code?: string }).code === 'PART_TOO_LARGE') throw new PayloadTooLargeError('The part is larger than 512 MiB');
        throw err;
      }
    } catch (err) {
      next(err);
    }
  });
  return router;
}
