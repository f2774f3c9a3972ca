import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MediaMissingError, checkKey, type MultipartPart, type Storage, type StoredObject } from './storage.ts';

/**
 * Files under DATA_DIR/storage. Signed URLs point at this server (`/api/storage/...`) and
 * carry an HMAC of the method, key and expiry, so they work like S3 presigned URLs.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  private root: string;
  private secret: Buffer;
  private baseUrl: () => string;

  constructor(root: string, secret: Buffer, baseUrl: () => string) {
    this.root = root;
    this.secret = secret;
    this.baseUrl = baseUrl;
  }

  private file(key: string): string {
    return path.join(this.root, 'objects', checkKey(key));
  }
  private uploadDir(uploadId: string): string {
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(uploadId)) throw new Error('invalid upload id');
    return path.join(this.root, 'uploads', uploadId);
  }

  async put(key: string, body: Readable | Buffer, contentType: string): Promise<StoredObject> {
    const target = this.file(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(tmp));
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    await fsp.writeFile(`${target}.meta`, JSON.stringify({ contentType }));
    return { key, size: (await fsp.stat(target)).size, contentType };
  }

  /** The object, or the bytes start..end (inclusive) of it: what a Range request asks for. */
  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const target = this.file(key);
    try {
      await fsp.access(target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new MediaMissingError();
      throw err;
    }
    return fs.createReadStream(target, range);
  }

  async head(key: string): Promise<StoredObject | null> {
    const target = this.file(key);
    try {
      const stat = await fsp.stat(target);
      const meta = JSON.parse(await fsp.readFile(`${target}.meta`, 'utf8').catch(() => '{}')) as { contentType?: string };
      return { key, size: stat.size, contentType: meta.contentType ?? 'application/octet-stream' };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    const target = this.file(key);
    await fsp.rm(target, { force: true });
    await fsp.rm(`${target}.meta`, { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const dir = path.join(this.root, 'objects', checkKey(prefix.replace(/\/+$/, '')));
    let count = 0;
    const walk = async (d: string): Promise<void> => {
      for (const entry of await fsp.readdir(d, { withFileTypes: true }).catch(() => [])) {
        const full = path.join(d, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (!entry.name.endsWith('.meta')) count++;
      }
    };
    await walk(dir);
    await fsp.rm(dir, { recursive: true, force: true });
    return count;
  }

  sign(parts: string[], expires: number): string {
    return createHmac('sha256', this.secret).update([...parts, String(expires)].join('\n')).digest('base64url');
  }

  /** Checks a signature from a signed URL: right key, right method, not expired. */
  verify(parts: string[], expires: number, signature: string): boolean {
    if (!Number.isInteger(expires) || expires < Math.floor(Date.now() / 1000)) return false;
    const expected = Buffer.from(this.sign(parts, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  async signedUrl(key: string, ttlSeconds: number, opts: { filename?: string } = {}): Promise<string> {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    const url = new URL(`${this.baseUrl()}/api/storage/objects/${checkKey(key).split('/').map(encodeURIComponent).join('/')}`);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('sig', this.sign(['GET', key], expires));
    if (opts.filename) url.searchParams.set('filename', opts.filename);
    return url.toString();
  }

  async createMultipart(key: string, contentType: string): Promise<string> {
    checkKey(key);
    const uploadId = randomBytes(16).toString('base64url');
    const dir = this.uploadDir(uploadId);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(path.join(dir, 'upload.json'), JSON.stringify({ key, contentType }));
    return uploadId;
  }

  async partUrl(key: string, uploadId: string, partNumber: number, ttlSeconds: number): Promise<string> {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    const url = new URL(`${this.baseUrl()}/api/storage/uploads/${uploadId}/${partNumber}`);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('sig', this.sign(['PUT', key, uploadId, String(partNumber)], expires));
    return url.toString();
  }

  /** Stores one part sent to a part URL; answers its ETag (MD5, as S3 does). */
  async putPart(uploadId: string, partNumber: number, body: Readable, maxBytes: number): Promise<{ key: string; etag: string }> {
    const dir = this.uploadDir(uploadId);
    const { key } = JSON.parse(await fsp.readFile(path.join(dir, 'upload.json'), 'utf8')) as { key: string };
    const hash = createHash('md5');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > maxBytes) return cb(Object.assign(new Error('part too large'), { code: 'PART_TOO_LARGE' }));
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    const tmp = path.join(dir, `${partNumber}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await pipeline(body, meter, fs.createWriteStream(tmp));
      await fsp.rename(tmp, path.join(dir, `${partNumber}.part`));
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    const etag = `"${hash.digest('hex')}"`;
    await fsp.writeFile(path.join(dir, `${partNumber}.etag`), etag);
    return { key, etag };
  }

  async uploadKey(uploadId: string): Promise<string | null> {
    try {
      return (JSON.parse(await fsp.readFile(path.join(this.uploadDir(uploadId), 'upload.json'), 'utf8')) as { key: string }).key;
    } catch {
      return null;
    }
  }

  async completeMultipart(key: string, uploadId: string, parts: MultipartPart[]): Promise<StoredObject> {
    const dir = this.uploadDir(uploadId);
    const { contentType } = JSON.parse(await fsp.readFile(path.join(dir, 'upload.json'), 'utf8')) as { contentType: string };
    const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    for (const part of ordered) {
      const etag = await fsp.readFile(path.join(dir, `${part.partNumber}.etag`), 'utf8').catch(() => null);
      if (etag === null || etag.replace(/"/g, '') !== part.etag.replace(/"/g, '')) throw new Error(`part ${part.partNumber} is missing or its ETag does not match`);
    }
    async function* concatenated() {
      for (const part of ordered) yield* fs.createReadStream(path.join(dir, `${part.partNumber}.part`));
    }
    const stored = await this.put(key, Readable.from(concatenated()), contentType);
    await fsp.rm(dir, { recursive: true, force: true });
    return stored;
  }

  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    await fsp.rm(this.uploadDir(uploadId), { recursive: true, force: true });
  }
}
