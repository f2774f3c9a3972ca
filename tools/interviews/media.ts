import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../core/config.ts';

export type MediaKind = 'audio' | 'video' | 'either';
export interface Sniffed {
  format: 'mp3' | 'wav' | 'ogg' | 'flac' | 'aac' | 'm4a' | 'mp4' | 'webm' | 'mpeg';
  kind: MediaKind;
  mime: string;
}

/** The container a file really is, from its first bytes; null when it is none we take. */
export function sniff(head: Buffer): Sniffed | null {
  if (head.length < 4) return null;
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (ascii(0, 3) === 'ID3' || (head[0] === 0xff && (head[1] & 0xe6) === 0xe2)) return { format: 'mp3', kind: 'audio', mime: 'audio/mpeg' };
  if (head[0] === 0xff && (head[1] & 0xf6) === 0xf0) return { format: 'aac', kind: 'audio', mime: 'audio/aac' };
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return { format: 'wav', kind: 'audio', mime: 'audio/wav' };
  if (ascii(0, 4) === 'OggS') return { format: 'ogg', kind: 'audio', mime: 'audio/ogg' };
  if (ascii(0, 4) === 'fLaC') return { format: 'flac', kind: 'audio', mime: 'audio/flac' };
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    return /^M4[AB] /.test(brand) ? { format: 'm4a', kind: 'audio', mime: 'audio/mp4' } : { format: 'mp4', kind: 'video', mime: 'video/mp4' };
  }
  if (head.readUInt32BE(0) === 0x1a45dfa3) return { format: 'webm', kind: 'either', mime: 'video/webm' };
  if (head.length >= 4 && head[0] === 0 && head[1] === 0 && head[2] === 1 && (head[3] === 0xba || head[3] === 0xb3)) return { format: 'mpeg', kind: 'video', mime: 'video/mpeg' };
  if (head[0] === 0x47 && head.length > 188 && head[188] === 0x47) return { format: 'mpeg', kind: 'video', mime: 'video/mp2t' };
  return null;
}

export function accepts(field: MediaKind, s: Sniffed): boolean {
  return field === 'either' || s.kind === 'either' || s.kind === field;
}

const require = createRequire(import.meta.url);

/** An executable called `name` on PATH: a system ffmpeg, which the operating system keeps patched. */
function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      /* not here */
    }
  }
  return null;
}

/**
 * FFMPEG_PATH / FFPROBE_PATH, else ffmpeg / ffprobe on PATH, else the binaries shipped inside the
 * npm packages. The bundled ffmpeg is an old (4.1) static build, the newest this registry carries
 * inside a package; `bundledFfmpeg` tells when it is the one in use, since it decodes untrusted uploads.
 */
export function tools(config: Pick<Config, 'ffmpegPath' | 'ffprobePath'>): { ffmpeg: string; ffprobe: string; bundledFfmpeg: boolean } {
  const system = config.ffmpegPath ?? onPath('ffmpeg');
  return {
    ffmpeg: system ?? (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
    ffprobe: config.ffprobePath ?? onPath('ffprobe') ?? (require('@ffprobe-installer/ffprobe') as { path: string }).path,
    bundledFfmpeg: system === null,
  };
}

export function run(bin: string, args: string[], timeoutMs = 10 * 60_000, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(Object.assign(new Error(`${bin.split('/').pop()} exited ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`), { code: 'MEDIA_TOOL_FAILED' }));
    });
  });
}

export interface Probe {
  durationSeconds: number | null;
  hasAudio: boolean;
  hasVideo: boolean;
}

export async function probe(ffprobe: string, file: string): Promise<Probe> {
  const json = JSON.parse(await run(ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], 60_000)) as {
    format?: { duration?: string };
    streams?: Array<{ codec_type?: string; disposition?: { attached_pic?: number } }>;
  };
  const streams = json.streams ?? [];
  const duration = Number(json.format?.duration);
  return {
    durationSeconds: Number.isFinite(duration) ? duration : null,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    hasVideo: streams.some((s) => s.codec_type === 'video' && !s.disposition?.attached_pic),
  };
}
