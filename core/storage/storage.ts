import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';

/**
 * Where media, artifacts and exports live. Keys are relative paths such as
 * `projects/prj_x/interviews/int_y/source-audio.mp3`.
 */
export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
}

export interface MultipartPart {
  partNumber: number;
  etag: string;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Streams a body into the store; never buffers it whole. */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<StoredObject>;
  /** Throws MediaMissingError when there is no object under the key. */
  get(key: string): Promise<Readable>;
  head(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  /** Deletes every object under a prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** A URL anyone holding it may GET until it expires. */
  signedUrl(key: string, ttlSeconds: number, opts?: { filename?: string }): Promise<string>;

  /** Resumable upload straight to the store, in parts (S3 semantics: parts >= 5 MiB except the last). */
  createMultipart(key: string, contentType: string): Promise<string>;
  partUrl(key: string, uploadId: string, partNumber: number, ttlSeconds: number): Promise<string>;
  completeMultipart(key: string, uploadId: string, parts: MultipartPart[]): Promise<StoredObject>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

export class StorageKeyError extends Error {}

/**
 * The database names an object the store does not have (deleted, or written to another
 * process's local folder). 404 with code media_missing, never an internal error.
 */
export class MediaMissingError extends AppError {
  constructor(what = 'The stored file') {
    super(404, `${what} is missing from storage`, {
      code: 'media_missing',
      retryable: false,
      action: 'Upload it again. When several processes run, they must share one storage folder (same DATA_DIR) or use STORAGE=s3',
    });
  }
}

/** Keys are plain relative paths: no `..`, no leading slash, no backslashes. */
export function checkKey(key: string): string {
  if (!key || key.startsWith('/') || key.includes('\\') || key.split('/').some((s) => s === '' || s === '.' || s === '..') || !/^[\x21-\x7e]+$/.test(key)) {
    throw new StorageKeyError(`invalid storage key ${JSON.stringify(key)}`);
  }
  return key;
}
