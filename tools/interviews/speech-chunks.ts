import { RATE } from './audio-samples.ts';

/** Where speech is in 16 kHz mono samples, as stretches short enough for the local speech model. */
export interface Chunk {
  start: number; // sample index
  end: number; // exclusive
}

const FRAME = 320; // 20 ms
const PAUSE_FRAMES = 25; // a pause of 0.5 s ends an utterance
const WINDOW_FRAMES = 10; // a long run is cut in its quietest 0.2 s
const MIN_VOICED_FRAMES = 10; // under 0.2 s of voice is a click or a cough
const PAD = 0.15 * RATE;
export const MAX_CHUNK_SECONDS = 20;

function frameLevels(samples: Float32Array): Float32Array {
  const levels = new Float32Array(Math.floor(samples.length / FRAME));
  for (let f = 0; f < levels.length; f++) {
    let sum = 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) if (Number.isFinite(samples[i])) sum += samples[i] * samples[i]; // a NaN is silence, not speech
    levels[f] = Math.sqrt(sum / FRAME);
  }
  return levels;
}

const quantile = (sorted: Float32Array, q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
/** Half a second of frames: the loudness that much of the recording reaches is speech's, however little else is said. */
const SUSTAINED_FRAMES = 25;

/** Cuts a run longer than the model takes at its quietest 0.2 s, again and again. */
function split(levels: Float32Array, from: number, to: number, out: Array<[number, number]>): void {
  const maxFrames = (MAX_CHUNK_SECONDS * RATE) / FRAME;
  if (to - from <= maxFrames) return void out.push([from, to]);
  let best = from + Math.floor((to - from) / 2);
  let bestLevel = Infinity;
  const margin = Math.floor(maxFrames / 4);
  for (let f = from + margin; f < to - margin - WINDOW_FRAMES; f++) {
    let sum = 0;
    for (let g = f; g < f + WINDOW_FRAMES; g++) sum += levels[g];
    if (sum < bestLevel) [bestLevel, best] = [sum, f + WINDOW_FRAMES / 2];
  }
  split(levels, from, best, out);
  split(levels, best, to, out);
}

/**
 * Utterances: runs of frames louder than the recording's own floor, joined across pauses under
 * half a second, padded a little, at most MAX_CHUNK_SECONDS each. Silence, and a level that never
 * rises well above its floor (steady noise, a hum), hold no speech.
 */
export function speechChunks(samples: Float32Array): Chunk[] {
  const levels = frameLevels(samples);
  if (levels.length === 0) return [];
  const sorted = Float32Array.from(levels).sort();
  const floor = quantile(sorted, 0.1);
  // The top 5 % of frames, or the loudest half second when that is less: a remark in five quiet minutes is 2 % of them.
  const peak = sorted[Math.max(Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length)), sorted.length - SUSTAINED_FRAMES)];
  // Steady noise (fans, hum, hiss) varies its level by under 1.8× from frame to frame; speech, even over noise, by 10× or more.
  if (peak < 0.003 || peak < floor * 2.5) return [];
  const threshold = floor + 0.1 * (peak - floor);
  const runs: Array<[number, number, number]> = []; // first frame, end frame, voiced frames
  let quiet = Infinity;
  for (let f = 0; f < levels.length; f++) {
    if (levels[f] <= threshold) {
      quiet++;
      continue;
    }
    const last = runs.at(-1);
    if (last && quiet < PAUSE_FRAMES) {
      last[1] = f + 1;
      last[2] += 1;
    } else runs.push([f, f + 1, 1]);
    quiet = 0;
  }
  const chunks: Chunk[] = [];
  for (const [from, to, voiced] of runs) {
    if (voiced < MIN_VOICED_FRAMES) continue;
    const pieces: Array<[number, number]> = [];
    split(levels, from, to, pieces);
    // Padded where the run starts and ends; a cut inside it is already quiet.
    for (const [i, [a, b]] of pieces.entries()) {
      chunks.push({
        start: i === 0 ? Math.max(0, a * FRAME - PAD) : a * FRAME,
        end: i === pieces.length - 1 ? Math.min(samples.length, b * FRAME + PAD) : b * FRAME,
      });
    }
  }
  return chunks;
}
