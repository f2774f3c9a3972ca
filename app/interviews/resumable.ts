import { api, data } from '../api.ts';

/** What the server takes (tools/interviews): transcripts up to 5 MiB, recordings up to 20 GiB. */
export const TRANSCRIPT_LIMIT = 5 * 1024 ** 2;
export const RECORDING_LIMIT = 20 * 1024 ** 3;

export interface Progress {
  sent: number;
  total: number;
  /** Set while a failed part is being sent again. */
  retrying: number | null;
}

/** The parts already stored for a file, kept across a failure (and a reload) so they are not sent again. */
interface Saved {
  id: string;
  partSize: number;
  partCount: number;
  etags: Record<number, string>;
}
const keyOf = (org: string, project: string, f: File) => `verbatim-upload:${org}/${project}:${f.name}:${f.size}:${f.lastModified}`;
const load = (k: string): Saved | null => {
  try {
    return JSON.parse(localStorage.getItem(k) ?? 'null') as Saved | null;
  } catch {
    return null;
  }
};

const RETRIES = 4;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PUTs one part with XMLHttpRequest, the only browser API that reports bytes sent. */
function putPart(url: string, body: Blob, onBytes: (n: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.upload.onprogress = (e) => onBytes(e.loaded);
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) return reject(new Error(`The storage answered HTTP ${xhr.status}`));
      let etag = xhr.getResponseHeader('ETag');
      if (!etag) etag = (JSON.parse(xhr.responseText || '{}') as { etag?: string }).etag ?? null;
      if (!etag) return reject(new Error('The storage did not confirm the part'));
      resolve(etag);
    };
    xhr.onerror = () => reject(new Error('The network connection failed'));
    xhr.send(body);
  });
}

/**
 * Uploads a recording through the resumable upload routes: start (or pick up) an upload, PUT the parts the
 * server does not have yet, retrying a failed part with a growing pause, then complete it into an interview.
 * A failure that outlasts the retries is thrown; calling again with the same file resumes from the stored parts.
 */
export async function uploadRecording(org: string, project: string, file: File, fields: { participant_name?: string; study_ref?: string }, onProgress: (p: Progress) => void) {
  const resumed = load(keyOf(org, project, file)) !== null;
  try {
    return await send(org, project, file, fields, onProgress);
  } catch (err) {
    // A saved upload the server no longer holds (expired, say): start it over once.
    const status = (err as { status?: number }).status;
    if (resumed && (status === 404 || status === 409)) return send(org, project, file, fields, onProgress);
    throw err;
  }
}

async function send(org: string, project: string, file: File, fields: { participant_name?: string; study_ref?: string }, onProgress: (p: Progress) => void) {
  const path = { orgHandle: org, projectHandle: project };
  const key = keyOf(org, project, file);
  let saved = load(key);
  if (!saved) {
    const { upload } = data(
      await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/media-uploads', {
        params: { path },
        body: { filename: file.name, content_type: mimeOf(file), size: file.size },
      }),
    );
    saved = { id: upload.id, partSize: upload.part_size, partCount: upload.part_count, etags: {} };
    localStorage.setItem(key, JSON.stringify(saved));
  }
  const s = saved;
  const uploadPath = { ...path, uploadId: s.id };
  const sizeOf = (n: number) => Math.min(s.partSize, file.size - (n - 1) * s.partSize);
  const stored = () => Object.keys(s.etags).reduce((sum, n) => sum + sizeOf(Number(n)), 0);
  const missing = Array.from({ length: s.partCount }, (_, i) => i + 1).filter((n) => !s.etags[n]);
  onProgress({ sent: stored(), total: file.size, retrying: null });
  try {
    if (missing.length) {
      let urls = new Map<number, string>();
      const sign = async (numbers: number[]) => {
        const { parts } = data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/media-uploads/{uploadId}/parts', { params: { path: uploadPath }, body: { part_numbers: numbers } }));
        urls = new Map(parts.map((p) => [p.part_number, p.url]));
      };
      await sign(missing);
      for (const n of missing) {
        const blob = file.slice((n - 1) * s.partSize, (n - 1) * s.partSize + sizeOf(n));
        for (let attempt = 0; ; attempt++) {
          try {
            const before = stored();
            s.etags[n] = await putPart(urls.get(n)!, blob, (b) => onProgress({ sent: before + b, total: file.size, retrying: attempt ? n : null }));
            localStorage.setItem(key, JSON.stringify(s));
            onProgress({ sent: stored(), total: file.size, retrying: null });
            break;
          } catch (err) {
            if (attempt >= RETRIES) throw err;
            onProgress({ sent: stored(), total: file.size, retrying: n });
            await wait(500 * 2 ** attempt);
            // A URL may have expired during a long break: ask for fresh ones.
            if (attempt >= 1) await sign(missing.filter((m) => !s.etags[m])).catch(() => {});
          }
        }
      }
    }
    const parts = Object.entries(s.etags).map(([n, etag]) => ({ part_number: Number(n), etag }));
    const done = data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/media-uploads/{uploadId}/complete', { params: { path: uploadPath }, body: { parts, ...fields } }));
    localStorage.removeItem(key);
    return done.session;
  } catch (err) {
    // An upload the server no longer holds (expired, completed, aborted) cannot be resumed: start afresh next time.
    const status = (err as { status?: number }).status;
    if (status === 404 || status === 409) localStorage.removeItem(key);
    throw err;
  }
}

export const isTranscript = (f: File) => /\.(txt|md|vtt|srt|json)$/i.test(f.name) || f.type.startsWith('text/') || f.type === 'application/json';
export const isRecording = (f: File) => f.type.startsWith('audio/') || f.type.startsWith('video/') || /\.(mp3|m4a|wav|ogg|flac|aac|webm|mp4|mov|mpeg|mkv)$/i.test(f.name);

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

const BY_EXT: Record<string, string> = { mp3: 'audio/mpeg', m4a: 'audio/mp4', wav: 'audio/wav', ogg: 'audio/ogg', flac: 'audio/flac', aac: 'audio/aac', webm: 'video/webm', mp4: 'video/mp4', mov: 'video/quicktime', mpeg: 'video/mpeg', mkv: 'video/x-matroska' };
/** The file's type, or one guessed from its extension when the browser does not know it. */
export const mimeOf = (f: File) => (/^(audio|video)\//.test(f.type) ? f.type : BY_EXT[f.name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream');
