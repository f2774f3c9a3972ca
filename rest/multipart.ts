import type { Request } from 'express';
import type multer from 'multer';
import { PassThrough } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { MultipartFile } from '../core/registry.ts';
import type { Storage } from '../core/storage/storage.ts';
import { AppError, PayloadTooLargeError, ValidationError } from '../core/errors.ts';
import { decodeTextFile } from '../core/text-file.ts';
import { accepts, sniff } from '../tools/interviews/media.ts';

/** A media part as it reaches a capability: already in storage, checked by content. */
export interface UploadedFile {
  storage_key: string;
  size: number;
  mime_type: string;
  format: string;
  filename: string;
}

const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;

/**
 * Streams media parts straight to storage (never whole in memory), refusing a part whose
 * first bytes are not an accepted container or that grows past its limit. Text parts are
 * small and kept in memory.
 */
class StreamingStorage implements multer.StorageEngine {
  stored: string[] = [];
  private storage: Storage;
  private files: Record<string, MultipartFile>;
  constructor(storage: Storage, files: Record<string, MultipartFile>) {
    this.storage = storage;
    this.files = files;
  }

  _handleFile(_req: Request, file: Express.Multer.File, cb: (error?: unknown, info?: Partial<Express.Multer.File> & { uploaded?: UploadedFile; text?: string }) => void): void {
    const spec = this.files[file.fieldname];
    if (!spec) {
      const named = Object.keys(this.files).map((f) => `"${f}"`).join(' or ');
      return cb(new ValidationError(`unexpected file part "${file.fieldname}": send the file as ${named}`, { code: 'unexpected_file_part' }));
    }
    let size = 0;
    const tooBig = () => new PayloadTooLargeError(`${file.fieldname}: the file is larger than ${mib(spec.maxBytes)}`, { code: 'file_too_large' });
    if (spec.kind === 'text') {
      const chunks: Buffer[] = [];
      file.stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > spec.maxBytes) {
          file.stream.destroy(tooBig());
          return;
        }
        chunks.push(c);
      });
      file.stream.on('error', (err) => cb(err));
      file.stream.on('end', () => {
        const text = decodeTextFile(Buffer.concat(chunks));
        // Said here rather than by the generic NUL refusal, which would not say why.
        if (text.includes('\u0000')) {
          // A recording sent where a transcript goes: said where it belongs.
          const media = sniff(Buffer.concat(chunks).subarray(0, 64));
          // A .docx or .pdf: what to do with it.
          const where = media
            ? ' (it looks like a recording: upload it with POST P/sessions/upload-video instead)'
            : ' (a Word document or PDF, say: save or export it as plain text (.txt), WebVTT (.vtt) or SRT (.srt) first)';
          return cb(new ValidationError(`${file.fieldname}: the file is binary, not text${where}`, { code: 'file_not_text' }));
        }
        cb(null, { size, text });
      });
      return;
    }
    const key = `incoming/${randomBytes(12).toString('hex')}/${file.fieldname}`;
    const body = new PassThrough();
    // Errors reach the caller through storage.put or finish(); none may go unheard.
    body.on('error', () => {});
    let head = Buffer.alloc(0);
    let failed = false;
    let done = false;
    const finish = (err: unknown, info?: Parameters<typeof cb>[1]) => {
      if (done) return;
      done = true;
      cb(err, info);
    };
    const fail = (err: AppError) => {
      if (failed) return;
      failed = true;
      file.stream.resume();
      body.destroy(err);
      finish(err);
    };
    // The object is written only once the first bytes prove what the file is.
    const start = (head: Buffer) => {
      const sniffed = sniff(head);
      if (!sniffed || !accepts(spec.accept ?? 'either', sniffed)) {
        const want = spec.accept === 'audio' ? 'an audio file (MP3, M4A, WAV, OGG, FLAC, AAC, WebM)' : spec.accept === 'video' ? 'a video file (MP4, WebM, MPEG)' : 'an audio or video file';
        fail(new AppError(415, `${file.fieldname}: the content is not ${want}, whatever its name or type says`, { code: 'unsupported_media_type' }));
        return false;
      }
      body.write(head);
      this.storage.put(key, body, sniffed.mime).then(
        (obj) => {
          this.stored.push(key);
          finish(null, { size: obj.size, uploaded: { storage_key: key, size: obj.size, mime_type: sniffed.mime, format: sniffed.format, filename: file.originalname } });
        },
        (err) => {
          this.storage.delete(key).catch(() => {});
          finish(failed ? undefined : err);
        },
      );
      return true;
    };
    let started = false;
    file.stream.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > spec.maxBytes) return fail(tooBig());
      if (!started) {
        head = Buffer.concat([head, c]);
        if (head.length >= 200) started = start(head);
        return;
      }
      // Backpressure: stop reading the request while storage catches up, so memory stays flat.
      if (!body.write(c)) {
        file.stream.pause();
        body.once('drain', () => file.stream.resume());
      }
    });
    file.stream.on('end', () => {
      if (failed) return;
      if (!started) started = start(head);
      if (started) body.end();
    });
    file.stream.on('error', (err) => {
      body.destroy(err);
      finish(err);
    });
  }

  _removeFile(_req: Request, file: Express.Multer.File & { uploaded?: UploadedFile }, cb: (error: Error | null) => void): void {
    if (!file.uploaded) return cb(null);
    this.storage.delete(file.uploaded.storage_key).then(() => cb(null), (err) => cb(err));
  }
}

/** Parses a multipart body into one input object; on failure nothing it stored is kept. */
export async function parseMultipart(req: Request, res: import('express').Response, storage: Storage, files: Record<string, MultipartFile>): Promise<{ input: Record<string, unknown>; stored: string[] }> {
  if (!req.is('multipart/form-data')) throw new ValidationError('The body must be multipart/form-data', { code: 'multipart_required' });
  const engine = new StreamingStorage(storage, files);
  const largest = Math.max(...Object.values(files).map((f) => f.maxBytes));
  const { default: multer } = await import('multer');
  const upload = multer({ storage: engine, limits: { fileSize: largest + 1, files: Object.keys(files).length, fields: 20, fieldSize: 64 * 1024 } }).any();
  try {
    await new Promise<void>((resolve, reject) => upload(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    await Promise.all(engine.stored.map((k) => storage.delete(k).catch(() => {})));
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; message?: string; field?: string };
    if (e.code === 'LIMIT_FILE_SIZE') {
      const max = e.field && files[e.field] ? files[e.field].maxBytes : largest;
      throw new PayloadTooLargeError(`${e.field}: the file is larger than ${mib(max)}`, { code: 'file_too_large' });
    }
    if (e.code?.startsWith('LIMIT_')) throw new ValidationError(`multipart: ${e.message}`);
    throw new ValidationError(`Malformed multipart body: ${e.message ?? 'unreadable'}`, { code: 'malformed_multipart' });
  }
  const input: Record<string, unknown> = { ...(req.body as Record<string, unknown>) };
  const seen = new Set<string>();
  for (const f of (req.files as Array<Express.Multer.File & { uploaded?: UploadedFile; text?: string }>) ?? []) {
    if (seen.has(f.fieldname)) throw new ValidationError(`${f.fieldname}: send one file only`);
    seen.add(f.fieldname);
    input[f.fieldname] = f.uploaded ?? f.text;
  }
  return { input, stored: engine.stored };
}
