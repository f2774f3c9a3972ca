import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InferenceSession, Tensor as TensorType } from 'onnxruntime-node';
import { speechChunks } from './speech-chunks.ts';
import { pitchOf } from './speakers.ts';
import { RATE, samplesOf } from './audio-samples.ts';
import type { TimedText } from './transcription.ts';

/**
 * Moonshine tiny (English, MIT), whose quantised weights ship in the `@usefulsensors/moonshine-js`
 * npm package, run by onnxruntime-node on the CPU. It runs in the transcriber process
 * (transcriber-process.ts), never in the server's.
 */

// Moonshine tiny's decoder: 6 layers, 8 key/value heads of 36 dimensions.
const LAYERS = 6;
const HEADS = 8;
const HEAD_DIM = 36;
const START = 1;
const END = 2;
// About six tokens a second of speech; a chunk's text stops there even if the model does not.
const TOKENS_PER_SECOND = 6;

interface Model {
  ort: typeof import('onnxruntime-node');
  encoder: InferenceSession;
  decoder: InferenceSession;
  decode: (tokens: number[]) => string;
}

let loading: Promise<Model> | null = null;
function modelDir(): string {
  const entry = fileURLToPath(import.meta.resolve('@usefulsensors/moonshine-js'));
  return path.join(path.dirname(entry), 'model', 'tiny', 'quantized');
}

/** Loaded on first use, once per transcriber process. */
function model(): Promise<Model> {
  loading ??= (async () => {
    const ort = await import('onnxruntime-node');
    const tokenizer = (await import('llama-tokenizer-js')).default;
    const dir = modelDir();
    // One thread: the model is small enough that more only add overhead, and the HTTP server shares the cores.
    const options: InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1 };
    const [encoder, decoder] = await Promise.all([
      ort.InferenceSession.create(path.join(dir, 'encoder_model.onnx'), options),
      ort.InferenceSession.create(path.join(dir, 'decoder_model_merged.onnx'), options),
    ]);
    return { ort, encoder, decoder, decode: (tokens: number[]) => tokenizer.decode(tokens) };
  })().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** Greedy decoding of one chunk of speech: the text, and how sure the model was of it (mean log-probability of its tokens). */
async function read(m: Model, audio: Float32Array): Promise<{ text: string; sureness: number }> {
  const { Tensor } = m.ort;
  const encoded = await m.encoder.run({ input_values: new Tensor('float32', audio, [1, audio.length]) });
  const past: Record<string, TensorType> = {};
  for (let i = 0; i < LAYERS; i++) {
    for (const part of ['decoder', 'encoder']) {
      for (const kv of ['key', 'value']) past[`past_key_values.${i}.${part}.${kv}`] = new Tensor('float32', new Float32Array(0), [0, HEADS, 1, HEAD_DIM]);
    }
  }
  const tokens: number[] = [];
  let input = START;
  const most = Math.ceil((audio.length / RATE) * TOKENS_PER_SECOND) + 2;
  let ended = false;
  let logProb = 0;
  for (let step = 0; step < most; step++) {
    const out = await m.decoder.run({
      input_ids: new Tensor('int64', BigInt64Array.of(BigInt(input)), [1, 1]),
      encoder_hidden_states: encoded.last_hidden_state,
      use_cache_branch: new Tensor('bool', [step > 0], [1]),
      ...past,
    });
    const logits = out.logits.data as Float32Array;
    let best = 0;
    for (let k = 1; k < logits.length; k++) if (logits[k] > logits[best]) best = k;
    let total = 0;
    for (let k = 0; k < logits.length; k++) total += Math.exp(logits[k] - logits[best]);
    logProb -= Math.log(total);
    if (best === END) {
      ended = true;
      break;
    }
    tokens.push(best);
    input = best;
    // The encoder's keys and values are computed on the first step and kept; the decoder's grow.
    for (const name of Object.keys(past)) if (step === 0 || name.includes('.decoder.')) past[name] = out[name.replace('past_key_values', 'present')];
  }
  // A model that ran to the cap instead of ending has looped ("the the the the…" on noise).
  const kept = ended ? tokens : withoutLoops(tokens, (t) => /^\s*\d+\s*$/.test(m.decode([t])));
  // A loop is said with confidence but is no speech: a chunk that looped is taken as not made out.
  const sureness = kept.length < tokens.length ? -Infinity : logProb / Math.max(1, tokens.length + (ended ? 1 : 0));
  return { text: m.decode(kept).trim(), sureness };
}

/**
 * A run of the same 1–4 tokens four times is cut to one. Runs of digits are kept: numbers are
 * read a digit a token, and "100000" is not a loop.
 */
export function withoutLoops(tokens: number[], isDigit: (token: number) => boolean): number[] {
  const out: number[] = [];
  for (const t of tokens) {
    out.push(t);
    for (let n = 1; n <= 4; n++) {
      if (out.length < n * 4) continue;
      const tail = out.slice(-n);
      if (tail.every(isDigit)) continue;
      let repeats = 1;
      while (repeats < 4 && out.slice(-(repeats + 1) * n, -repeats * n).every((x, i) => x === tail[i])) repeats++;
      if (repeats === 4) out.length -= n * 3;
    }
  }
  return out;
}

/** An utterance heard, with the pitch of its voice (speakers.ts tells voices apart by it). */
export interface VoicedText extends TimedText {
  pitch: number | null;
}

/** What was heard in a file, and how much speech the model could not make out. */
export interface Heard {
  texts: VoicedText[];
  /** Seconds of speech the model read with too little certainty to keep (another language, mumbling, noise). */
  unclearSeconds: number;
  /** Where that speech was, so the transcript can mark it. */
  unclear: Array<{ start_ms: number; end_ms: number }>;
  speechSeconds: number;
}

/**
 * Below this mean log-probability a chunk's text is the model guessing: English speech, even
 * espeak's robotic voice, reads at -0.1 to -0.35; French, Spanish, Italian, German, Dutch and
 * Portuguese at -0.75 to -1.4, as fluent English that was never said ("there is no problem at all").
 */
const UNSURE = -0.55;

/**
 * The speech in an audio file, as timed text: one entry per utterance (a pause of half a second
 * or more ends one; each is at most about 20 s). `offsetMs` is where the file starts in the recording.
 * An utterance the model is unsure of is left out, never guessed at.
 */
export async function transcribeHere(ffmpeg: string, file: string, offsetMs: number, scratch: string): Promise<Heard> {
  const samples = await samplesOf(ffmpeg, file, scratch);
  const chunks = speechChunks(samples);
  const heard: Heard = { texts: [], unclearSeconds: 0, speechSeconds: 0, unclear: [] };
  if (chunks.length === 0) return heard;
  const m = await model();
  for (const chunk of chunks) {
    const audio = samples.subarray(chunk.start, chunk.end);
    const { text, sureness } = await read(m, audio);
    const words = /[A-Za-z0-9]/.test(text);
    // No words read with confidence is a sound that is no speech; no words read unsure of anything is speech not made out
    // (clean French comes out as nothing at all).
    if (!words && sureness >= UNSURE) continue;
    heard.speechSeconds += audio.length / RATE;
    if (!words || sureness < UNSURE) {
      heard.unclearSeconds += audio.length / RATE;
      heard.unclear.push({ start_ms: offsetMs + Math.round((chunk.start / RATE) * 1000), end_ms: offsetMs + Math.round((chunk.end / RATE) * 1000) });
      continue;
    }
    heard.texts.push({ start_ms: offsetMs + Math.round((chunk.start / RATE) * 1000), end_ms: offsetMs + Math.round((chunk.end / RATE) * 1000), text, pitch: pitchOf(audio) });
  }
  return heard;
}
