import fs from 'node:fs';
import { SIGNAL_TYPES, type SignalType } from './types.ts';

/** What the model can say about a sentence: no evidence, or one of the SPEC 2.6.1 types. */
export const CLASSES = ['none', ...SIGNAL_TYPES] as const;

/** A trained sentence model as stored in sentence-model.json (written by `npm run train:extractor`). */
export interface SentenceModelData {
  classes: string[];
  /** Feature name → one weight per class. */
  weights: Record<string, number[]>;
  /** A type is proposed when its probability reaches this. */
  threshold: number;
  /** A second type in the same sentence needs at least this. */
  second: number;
  trained_on: { transcripts: number; sentences: number; labels: number };
}

export const MODEL_FILE = new URL('./sentence-model.json', import.meta.url);

/**
 * Multinomial logistic regression over sparse sentence features: the probability of each
 * class is a softmax of summed feature weights.
 */
export class SentenceModel {
  readonly data: SentenceModelData;

  constructor(data: SentenceModelData) {
    this.data = data;
    if (data.classes.join() !== CLASSES.join()) throw new Error('sentence model classes do not match the signal types; run npm run train:extractor');
  }

  static #shipped: SentenceModel | null = null;
  /** The model shipped with the code. */
  static shipped(): SentenceModel {
    SentenceModel.#shipped ??= new SentenceModel(JSON.parse(fs.readFileSync(MODEL_FILE, 'utf8')) as SentenceModelData);
    return SentenceModel.#shipped;
  }

  probabilities(features: string[]): number[] {
    const z = new Array<number>(CLASSES.length).fill(0);
    for (const f of features) {
      const w = this.data.weights[f];
      if (w) for (let c = 0; c < z.length; c++) z[c] += w[c];
    }
    return softmax(z);
  }

  /** The types a sentence carries, most probable first: at most two. */
  types(features: string[]): Array<{ type: SignalType; p: number }> {
    const p = this.probabilities(features);
    const ranked = p
      .map((v, c) => ({ type: CLASSES[c], p: v }))
      .filter((x): x is { type: SignalType; p: number } => x.type !== 'none')
      .sort((a, b) => b.p - a.p);
    const [first, second] = ranked;
    if (first.p < this.data.threshold) return [];
    return second.p >= this.data.second ? [first, second] : [first];
  }
}

export function softmax(z: number[]): number[] {
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}
