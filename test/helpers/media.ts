import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ESpeakNg from 'espeak-ng';
import { tools } from '../../tools/interviews/media.ts';

/** The ffmpeg the service would use: FFMPEG_PATH, else one on PATH, else the one from npm. */
export const ffmpeg = tools({ ffmpegPath: process.env.FFMPEG_PATH || null, ffprobePath: process.env.FFPROBE_PATH || null }).ffmpeg;

export const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-media-'));

/** Real speech from espeak-ng (its WebAssembly build from npm), as WAV then converted by ffmpeg to the format asked for. */
export async function speech(text: string, name: string, format: 'wav' | 'mp3' | 'ogg' | 'flac' = 'wav', voice = 'en-us'): Promise<string> {
  const wav = path.join(mediaDir, `${name}.wav`);
  const espeak = await ESpeakNg({ arguments: ['-w', 'out.wav', '-v', voice, text] });
  fs.writeFileSync(wav, espeak.FS.readFile('out.wav'));
  if (format === 'wav') return wav;
  const out = path.join(mediaDir, `${name}.${format}`);
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', wav, out]);
  return out;
}

/** A conversation: each line spoken in its voice (an espeak-ng voice such as `en-us` or `en-us+f3`), with a pause of `pauseSeconds` after it. */
export async function conversation(name: string, lines: Array<[voice: string, text: string]>, pauseSeconds = 0.8): Promise<string> {
  return (await timedConversation(name, lines, pauseSeconds)).file;
}

/** The same, with when each line is said (seconds), as a transcription service would return them. */
export async function timedConversation(name: string, lines: Array<[voice: string, text: string]>, pauseSeconds = 0.8) {
  const files: string[] = [];
  const segments: Array<{ start: number; end: number; text: string }> = [];
  let at = 0;
  for (const [i, [voice, text]] of lines.entries()) {
    files.push(await speech(text, `${name}-${i}`, 'wav', voice));
    const seconds = (fs.statSync(files[i]).size - 44) / 2 / 22_050; // espeak's 16-bit mono WAV
    segments.push({ start: at, end: at + seconds, text });
    at += seconds + pauseSeconds;
  }
  const out = path.join(mediaDir, `${name}.mp3`);
  // espeak speaks at 22,050 Hz; this ffmpeg's apad counts samples.
  const pads = files.map((_, i) => `[${i}]apad=pad_len=${Math.round(pauseSeconds * 22_050)}[a${i}]`).join(';');
  execFileSync(ffmpeg, ['-v', 'error', '-y', ...files.flatMap((f) => ['-i', f]), '-filter_complex', `${pads};${files.map((_, i) => `[a${i}]`).join('')}concat=n=${files.length}:v=0:a=1`, out]);
  return { file: out, segments };
}

/** A short video with a test pattern and a tone, from ffmpeg's own sources. */
export function video(name: string, seconds = 3): string {
  const out = path.join(mediaDir, `${name}.mp4`);
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=320x240:rate=10`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-shortest', '-pix_fmt', 'yuv420p', out]);
  return out;
}

export function form(parts: Record<string, string | { file: string; filename?: string; type?: string } | { buffer: Buffer; filename: string; type?: string }>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(parts)) {
    if (typeof v === 'string') fd.set(k, v);
    else if ('file' in v) fd.set(k, new Blob([fs.readFileSync(v.file)], { type: v.type ?? 'application/octet-stream' }), v.filename ?? path.basename(v.file));
    else fd.set(k, new Blob([v.buffer], { type: v.type ?? 'application/octet-stream' }), v.filename);
  }
  return fd;
}
