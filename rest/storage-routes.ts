import express, { type Router } from 'express';
import type { Services } from '../core/context.ts';
import { LocalStorage } from '../core/storage/local.ts';
import { AppError, PayloadTooLargeError } from '../core/errors.ts';
import { MediaMissingError } from '../core/storage/index.ts';

/** S3 takes parts up to 5 GiB; ours are far smaller, and this bounds one request. */
const MAX_PART_BYTES = 512 * 1024 * 1024;

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
      res.setHeader('Content-Length', String(head.size));
      res.setHeader('Cache-Control', 'private, max-age=60');
      if (typeof req.query.filename === 'string') res.attachment(req.query.filename);
      (await storage.get(key)).pipe(res);
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
