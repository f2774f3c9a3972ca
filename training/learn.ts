import { CLASSES, softmax } from '../tools/evidence/sentence-model.ts';

export interface Example {
  features: string[];
  /** Class indices into CLASSES; a sentence with two labels counts half for each. */
  classes: number[];
}

export interface LearnOptions {
  epochs: number;
  /** L2 penalty per update. */
  l2: number;
  rate: number;
  /** Features seen in fewer training sentences are dropped. */
  minCount: number;
  seed: number;
}

export const DEFAULTS: LearnOptions = { epochs: 25, l2: 1e-4, rate: 0.3, minCount: 2, seed: 7 };
const round = (v: number) => Math.round(v * 1e4) / 1e4 || 0;

/** A small seeded generator, so a training run is reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fits softmax regression with AdaGrad and L2 on sparse binary features. Returns the weights
 * per feature, averaged over the epochs' ends and rounded for storage.
 */
export function learn(examples: Example[], options: Partial<LearnOptions> = {}): Record<string, number[]> {
  const o = { ...DEFAULTS, ...options };
  const K = CLASSES.length;
  const seen = new Map<string, number>();
  for (const e of examples) for (const f of e.features) seen.set(f, (seen.get(f) ?? 0) + 1);
  const kept = new Set([...seen].filter(([, n]) => n >= o.minCount).map(([f]) => f));
  const w = new Map<string, Float64Array>();
  const g2 = new Map<string, Float64Array>();
  for (const f of kept) {
    w.set(f, new Float64Array(K));
    g2.set(f, new Float64Array(K).fill(1e-8));
  }
  const data = examples.map((e) => ({ features: e.features.filter((f) => kept.has(f)), classes: e.classes }));
  const sum = new Map([...w.keys()].map((f) => [f, new Float64Array(K)]));
  const random = mulberry32(o.seed);
  const order = data.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const idx of order) {
      const { features, classes } = data[idx];
      const z = new Array<number>(K).fill(0);
      for (const f of features) {
        const wf = w.get(f)!;
        for (let c = 0; c < K; c++) z[c] += wf[c];
      }
      const p = softmax(z);
      const target = new Array<number>(K).fill(0);
      for (const c of classes) target[c] += 1 / classes.length;
      for (const f of features) {
        const wf = w.get(f)!;
        const gf = g2.get(f)!;
        for (let c = 0; c < K; c++) {
          const grad = p[c] - target[c] + o.l2 * wf[c];
          gf[c] += grad * grad;
          wf[c] -= (o.rate * grad) / Math.sqrt(gf[c]);
        }
      }
    }
    for (const [f, wf] of w) {
      const sf = sum.get(f)!;
      for (let c = 0; c < K; c++) sf[c] += wf[c];
    }
  }
  const out: Record<string, number[]> = {};
  for (const [f, sf] of sum) {
    const wf = [...sf].map((v) => v / o.epochs);
    if (wf.every((v) => Math.abs(v) < 1e-3)) continue;
    out[f] = wf.map(round);
  }
  return out;
}

/**
 * One model per view of the features and per shuffle seed, averaged into one weight table (a
 * feature a view does not see counts zero there). A single shuffle's weights vary a lot with
 * the order of the examples; their average scores five points of F1 higher cross-validated
 * (docs/extractor-quality.md) and is still one sparse dot product per sentence.
 */
export function learnAveraged(examples: Example[], views: Array<(feature: string) => boolean>, seeds: number, options: Partial<LearnOptions> = {}): Record<string, number[]> {
  const runs = views.flatMap((keep) => {
    const seen = examples.map((e) => ({ ...e, features: e.features.filter(keep) }));
    return Array.from({ length: seeds }, (_, i) => learn(seen, { ...options, seed: (options.seed ?? DEFAULTS.seed) + i }));
  });
  const total: Record<string, number[]> = {};
  for (const weights of runs) {
    for (const [f, wf] of Object.entries(weights)) {
      const t = (total[f] ??= new Array<number>(wf.length).fill(0));
      for (let c = 0; c < wf.length; c++) t[c] += wf[c] / runs.length;
    }
  }
  const out: Record<string, number[]> = {};
  for (const [f, t] of Object.entries(total)) if (t.some((v) => Math.abs(v) >= 1e-3)) out[f] = t.map(round);
  return out;
}
