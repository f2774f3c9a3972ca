import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from './media.ts';

export const RATE = 16_000;

/** A file's sound as 16 kHz mono samples; an error with code `media_unreadable` when ffmpeg cannot read it. */
export async function samplesOf(ffmpeg: string, file: string, scratch: string): Promise<Float32Array> {
  const raw = path.join(scratch, `${path.basename(file)}.f32`);
  try {
    await run(ffmpeg, ['-v', 'error', '-y', '-i', file, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', raw]);
  } catch {
    throw Object.assign(new Error('The recording is not readable audio'), { code: 'media_unreadable' });
  }
  const bytes = await fs.readFile(raw);
  await fs.rm(raw, { force: true });
  const whole = bytes.subarray(0, bytes.length - (bytes.length % 4));
  // A Float32Array view needs 4-byte alignment, which a pooled Buffer may not have.
  return whole.byteOffset % 4 === 0 ? new Float32Array(whole.buffer, whole.byteOffset, whole.length / 4) : new Float32Array(Uint8Array.from(whole).buffer);
}
