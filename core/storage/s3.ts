import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { lazyModule } from '../lazy.ts';
import { MediaMissingError, checkKey, type MultipartPart, type Storage, type StoredObject } from './storage.ts';

export interface S3Config {
  bucket: string;
  region: string;
  endpoint: string | null;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
}

/** The AWS SDK (~12 MiB of heap) loads only in processes configured for S3. */
const sdk = lazyModule(async () => {
  const [s3, lib, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage'), import('@aws-sdk/s3-request-presigner')]);
  return { s3, Upload: lib.Upload, getSignedUrl: presigner.getSignedUrl };
});

/** Any S3-compatible object store (AWS, MinIO, R2, ...). Uploads stream in parts. */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private bucket: string;
  private cfg: S3Config;
  private connected: S3Client | null = null;

  constructor(cfg: S3Config) {
    this.bucket = cfg.bucket;
    this.cfg = cfg;
    // A process configured for S3 uses it soon: load now, so the first upload's stream waits on nothing.
    sdk().catch(() => {});
  }

  /** The SDK and one client for this store, made at the first call. */
  private async s3() {
    const m = await sdk();
    const cfg = this.cfg;
    this.connected ??= new m.s3.S3Client({
      region: cfg.region,
      ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
      forcePathStyle: cfg.forcePathStyle,
      ...(cfg.accessKeyId && cfg.secretAccessKey ? { credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } } : {}),
    });
    return { ...m, client: this.connected };
  }

  async put(key: string, body: Readable | Buffer, contentType: string): Promise<StoredObject> {
    const { client, Upload } = await this.s3();
    await new Upload({ client, params: { Bucket: this.bucket, Key: checkKey(key), Body: body, ContentType: contentType } }).done();
    const head = await this.head(key);
    return head ?? { key, size: 0, contentType };
  }

  async get(key: string): Promise<Readable> {
    const { client, s3 } = await this.s3();
    try {
      const res = await client.send(new s3.GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return res.Body as Readable;
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) throw new MediaMissingError();
      throw err;
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    const { client, s3 } = await this.s3();
    try {
      const res = await client.send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return { key, size: res.ContentLength ?? 0, contentType: res.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const { client, s3 } = await this.s3();
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const { client, s3 } = await this.s3();
    let count = 0;
    let token: string | undefined;
    do {
      const page = await client.send(new s3.ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${checkKey(prefix.replace(/\/+$/, ''))}/`, ContinuationToken: token }));
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length) {
        await client.send(new s3.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys } }));
        count += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return count;
  }

  async signedUrl(key: string, ttlSeconds: number, opts: { filename?: string } = {}): Promise<string> {
    const { client, getSignedUrl, s3 } = await this.s3();
    const command = new s3.GetObjectCommand({
      Bucket: this.bucket,
      Key: checkKey(key),
      ...(opts.filename ? { ResponseContentDisposition: `attachment; filename="${opts.filename.replace(/"/g, '')}"` } : {}),
    });
    return getSignedUrl(client, command, { expiresIn: ttlSeconds });
  }

  async createMultipart(key: string, contentType: string): Promise<string> {
    const { client, s3 } = await this.s3();
    const res = await client.send(new s3.CreateMultipartUploadCommand({ Bucket: this.bucket, Key: checkKey(key), ContentType: contentType }));
    return res.UploadId!;
  }

  async partUrl(key: string, uploadId: string, partNumber: number, ttlSeconds: number): Promise<string> {
    const { client, getSignedUrl, s3 } = await this.s3();
    return getSignedUrl(client, new s3.UploadPartCommand({ Bucket: this.bucket, Key: checkKey(key), UploadId: uploadId, PartNumber: partNumber }), { expiresIn: ttlSeconds });
  }

  async completeMultipart(key: string, uploadId: string, parts: MultipartPart[]): Promise<StoredObject> {
    const { client, s3 } = await this.s3();
    await client.send(
      new s3.CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: checkKey(key),
        UploadId: uploadId,
        MultipartUpload: { Parts: [...parts].sort((a, b) => a.partNumber - b.partNumber).map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      }),
    );
    return (await this.head(key))!;
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    const { client, s3 } = await this.s3();
    await client.send(new s3.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: checkKey(key), UploadId: uploadId }));
  }
}
