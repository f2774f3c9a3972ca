import { PassThrough } from 'node:stream';
import type { EntryData } from 'archiver';
import type { Storage, StoredObject } from '../../core/storage/storage.ts';

const never = new Promise<never>(() => {});

/**
 * A zip streamed into storage as it is written. `add` waits until the entry has been
 * compressed, so at most one file is held in memory; a storage or archive failure rejects
 * whichever call is waiting instead of leaving it stalled on backpressure.
 */
export async function zipToStorage(storage: Storage, key: string) {
  // archiver and its stream helpers load with the first export, not in every process.
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  // S3's uploader accepts only a Node Readable; archiver's stream is not one.
  const body = new PassThrough();
  const failed = new Promise<never>((_, reject) => {
    archive.on('error', reject);
    archive.on('warning', reject);
  });
  archive.pipe(body);
  const stored = storage.put(key, body, 'application/zip');
  const storeFailed = stored.then(() => never);
  failed.catch(() => {});
  storeFailed.catch(() => {});
  const guard = <T>(p: Promise<T>) => Promise.race([p, failed, storeFailed]);

  return {
    async add(name: string, data: unknown): Promise<void> {
      const written = new Promise<void>((resolve) => {
        const onEntry = (entry: EntryData) => {
          if (entry.name !== name) return;
          archive.off('entry', onEntry);
          resolve();
        };
        archive.on('entry', onEntry);
      });
      archive.append(JSON.stringify(data, null, 2) + '\n', { name });
      await guard(written);
    },
    async finish(): Promise<StoredObject> {
      await guard(archive.finalize());
      return Promise.race([stored, failed]);
    },
    abort(err: Error): void {
      archive.abort();
      // The store sees the error through its own listener; this one keeps a store that never read from crashing the process.
      body.on('error', () => {});
      body.destroy(err);
      stored.catch(() => {});
    },
  };
}
