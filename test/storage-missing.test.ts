import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { S3Storage } from '../core/storage/s3.ts';
import { LocalStorage } from '../core/storage/local.ts';
import type { Storage } from '../core/storage/storage.ts';

/** Both stores answer a read of an object they do not have with media_missing, not a driver error. */
let server: { run(): Promise<{ port: number }>; close(): Promise<void> };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-missing-'));
const stores: Array<[string, () => Storage]> = [];
let s3: S3Storage;

beforeAll(async () => {
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(dir, 's3'), configureBuckets: [{ name: 'verbatim-missing' }] });
  const { port } = await server.run();
  s3 = new S3Storage({ bucket: 'verbatim-missing', region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
stores.push(['s3', () => s3], ['local', () => new LocalStorage(path.join(dir, 'local'), Buffer.alloc(32), () => 'http://127.0.0.1')]);

describe.each(stores)('%s storage', (_name, store) => {
  it('reads a missing object as media_missing and a present one as its bytes', async () => {
    const storage = store();
    await expect(storage.get('projects/p1/interviews/i1/nothing')).rejects.toMatchObject({ status: 404, code: 'media_missing', retryable: false });
    await storage.put('projects/p1/interviews/i1/here', Buffer.from('here'), 'text/plain');
    const chunks: Buffer[] = [];
    for await (const c of await storage.get('projects/p1/interviews/i1/here')) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('here');
  });
});
