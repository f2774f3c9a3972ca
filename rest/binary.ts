import type { Request } from 'express';
import { Transform } from 'node:stream';
import { createHash, randomBytes } from 'node:crypto';
import type { Storage } from '../core/storage/storage.ts';
import { AppError, PayloadTooLargeError } from '../core/errors.ts';

/** A raw request body as it reaches a capability: already in storage. */
export interface StoredBody {
  storage_key: string;
  size: number;
  /** Hex MD5 of the bytes, as object stores use for part ETags. */
  md5: string;
}

/** Streams an `application/octet-stream` body to storage, refusing it past `maxBytes`. */
export async function storeBinaryBody(req: Request, storage: Storage, maxBytes: number): Promise<StoredBody> {
  if (!req.is('application/octet-stream')) {
    throw new AppError(415, 'Send the bytes with Content-Type: application/octet-stream', { code: 'unsupported_media_type' });
  }
  const declared = Number(req.get('content-length'));
  const tooBig = () => new PayloadTooLargeError(`The body is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`, { code: 'file_too_large' });
  if (Number.isFinite(declared) && declared > maxBytes) throw tooBig();
  let size = 0;
  const hash = createHash('md5');
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      hash.update(chunk);
      cb(size > maxBytes ? tooBig() : null, chunk);
    },
  });
  req.on('error', (err) => counter.destroy(err));
  const key = `incoming/${randomBytes(12).toString('hex')}/body`;
  try {
    await storage.put(key, req.pipe(counter), 'application/octet-stream');
  } catch (err) {
    await storage.delete(key).catch(() => {});
    throw counter.errored ?? err;
  }
  if (!size) {
    await storage.delete(key).catch(() => {});
    throw new AppError(400, 'The body is empty', { code: 'empty_body' });
  }
  return { storage_key: key, size, md5: hash.digest('hex') };
}
