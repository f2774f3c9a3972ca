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
 * sentence-model.json: the weights as one table of little-endian float32 (base64), a row of one
 * weight per class for each feature in `features` order. Read this way the model is one typed
 * array and one map instead of 66,000 small arrays (19 MiB resident instead of 41).
 */
export interface StoredModel extends Omit<SentenceModelData, 'weights'> {
  features: string[];
  weights: string;
}

/** The weights as the stored table: the features in order and one row of weights each. */
function tableOf(weights: Record<string, number[]>, classes: number): { features: string[]; table: Float32Array } {
  const features = Object.keys(weights);
  const table = new Float32Array(features.length * classes);
  features.forEach((f, i) => table.set(weights[f], i * classes));
  return { features, table };
}

export function storedModel(data: SentenceModelData): StoredModel {
  const { features, table } = tableOf(data.weights, data.classes.length);
  return { classes: data.classes, threshold: data.threshold, second: data.second, trained_on: data.trained_on, features, weights: Buffer.from(table.buffer).toString('base64') };
}

/** A stored model's table, read in place from its base64 text. */
function decoded(stored: StoredModel): { features: string[]; table: Float32Array } {
  const bytes = Buffer.from(stored.weights, 'base64');
  return { features: stored.features, table: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4) };
}

/**
 * Multinomial logistic regression over sparse sentence features: the probability of each
 * class is a softmax of summed feature weights.
 */
export class SentenceModel {
  readonly threshold: number;
  /** A second type in the same sentence needs at least this. */
  readonly second: number;
  private readonly rows: Map<string, number>;
  private readonly table: Float32Array;

  constructor(data: SentenceModelData | StoredModel) {
    if (data.classes.join() !== CLASSES.join()) throw new Error('sentence model classes do not match the signal types; run npm run train:extractor');
    // A model just trained (cross-validation) is tabled directly, without the base64 round trip.
    const { features, table } = typeof data.weights === 'string' ? decoded(data as StoredModel) : tableOf(data.weights, CLASSES.length);
    this.table = table;
    this.rows = new Map(features.map((f, i) => [f, i * CLASSES.length]));
    this.threshold = data.threshold;
    this.second = data.second;
  }

  static #shipped: SentenceModel | null = null;
  /** The model shipped with the code. */
  static shipped(): SentenceModel {
    SentenceModel.#shipped ??= new SentenceModel(JSON.parse(fs.readFileSync(MODEL_FILE, 'utf8')) as StoredModel);
    return SentenceModel.#shipped;
  }

  probabilities(features: string[]): number[] {
    const z = new Array<number>(CLASSES.length).fill(0);
    for (const f of features) {
      const row = this.rows.get(f);
      if (row !== undefined) for (let c = 0; c < z.length; c++) z[c] += this.table[row + c];
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
    if (first.p < this.threshold) return [];
    return second.p >= this.second ? [first, second] : [first];
  }
}

export function softmax(z: number[]): number[] {
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}
