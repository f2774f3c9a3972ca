import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local.ts';
import { S3Storage } from './s3.ts';
import type { Storage } from './storage.ts';

/** S3-compatible storage when STORAGE=s3 (with S3_BUCKET), else a folder under DATA_DIR. */
export function createStorage(config: Config, secret: Buffer, baseUrl: () => string): Storage {
  if (config.storage.kind === 's3') return new S3Storage(config.storage.s3);
  return new LocalStorage(localStorageRoot(config), secret, baseUrl);
}

export function localStorageRoot(config: Config): string {
  return path.join(config.dataDir, 'storage');
}

export type { Storage } from './storage.ts';
export { MediaMissingError } from './storage.ts';
export { checkStorageFolder, StorageFolderError } from './marker.ts';
