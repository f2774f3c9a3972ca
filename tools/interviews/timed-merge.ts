import fs from 'node:fs/promises';
import path from 'node:path';
import type { Services } from '../../core/context.ts';
import type { MediaChunkRow } from '../../models/index.ts';
import { downloadTo } from './artifacts.ts';
import { run } from './media.ts';

const RATE = 16_000;
const BYTES_PER_MS = (RATE * 2) / 1000;

/**
 * One audio file from recorded pieces that each know where they start on the interview's clock
 * (`started_ms`): every piece is decoded to 16 kHz mono PCM and written at its offset into a
 * silent track, so a moment in the merged recording is the same moment in the messages. A piece
 * without a start follows the one before it.
 */
export async function timedMerge(services: Services, ffmpeg: string, chunks: MediaChunkRow[], dir: string): Promise<string> {
  const pieces: Array<{ at: number; pcm: Buffer }> = [];
  let cursor = 0;
  for (const c of chunks) {
    const src = path.join(dir, `audio-${c.chunk_index}.rec`);
    const raw = path.join(dir, `audio-${c.chunk_index}.pcm`);
    await downloadTo(services, c.storage_key, src, `audio-chunk-${c.chunk_index}`);
    await run(ffmpeg, ['-v', 'error', '-y', '-i', src, '-vn', '-ac', '1', '-ar', String(RATE), '-f', 's16le', raw]);
    const pcm = await fs.readFile(raw);
    const at = c.started_ms ?? cursor;
    pieces.push({ at, pcm });
    cursor = at + pcm.length / BYTES_PER_MS;
  }
  const total = Math.max(...pieces.map((p) => Math.round(p.at * BYTES_PER_MS) & ~1) .map((start, i) => start + pieces[i].pcm.length));
  const track = Buffer.alloc(total);
  for (const p of pieces) p.pcm.copy(track, Math.round(p.at * BYTES_PER_MS) & ~1);
  const raw = path.join(dir, 'merged-audio.pcm');
  await fs.writeFile(raw, track);
  const out = path.join(dir, 'merged-audio.mp3');
  await run(ffmpeg, ['-v', 'error', '-y', '-f', 's16le', '-ar', String(RATE), '-ac', '1', '-i', raw, '-b:a', '32k', '-f', 'mp3', out]);
  return out;
}
