import { LocalExtractor, participantSentences } from '../tools/evidence/local-extractor.ts';
import { NEIGHBOUR, sentenceFeatures, TRIGRAM } from '../tools/evidence/sentence-features.ts';
import { CLASSES, SentenceModel, type SentenceModelData } from '../tools/evidence/sentence-model.ts';
import { covers, turnsOf, type LabelledTranscript } from './corpus.ts';
import { evaluate } from './evaluate.ts';
import { learnAveraged, type Example } from './learn.ts';

const FOLDS = 5;
export const THRESHOLDS = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55];
const SECOND = 0.3;
/** Two views of a sentence: its own words with their triples, and its own words with its neighbours' lemmas. */
const VIEWS = [(f: string) => !NEIGHBOUR.some((p) => f.startsWith(p)), (f: string) => !f.startsWith(TRIGRAM)];
const SEEDS = 4;
const learn = (examples: Example[]) => learnAveraged(examples, VIEWS, SEEDS, { epochs: 12 });

/** One example per participant sentence: the classes of the labels it covers, or none. */
export function examplesOf(t: LabelledTranscript): Example[] {
  return participantSentences(turnsOf(t.file)).map(({ text, read, context }) => {
    const types = [...new Set(t.labels.filter((l) => covers(text, l.quote)).map((l) => l.type))];
    const classes = types.length ? types.map((type) => CLASSES.indexOf(type as (typeof CLASSES)[number])) : [0];
    return { features: sentenceFeatures(read, context), classes };
  });
}

const modelData = (weights: Record<string, number[]>, threshold: number, trained_on: SentenceModelData['trained_on']): SentenceModelData => ({
  classes: [...CLASSES],
  weights,
  threshold,
  second: Math.max(threshold, SECOND),
  trained_on,
});

export interface Score {
  threshold: number;
  recall: number;
  precision: number;
  f1: number;
}

/**
 * Five-fold cross-validation that holds out whole transcripts, scored exactly as the held-out
 * set is (evaluate.ts), at each candidate threshold: an estimate for interviews not seen.
 */
export async function crossValidate(transcripts: LabelledTranscript[]): Promise<Score[]> {
  const examples = new Map(transcripts.map((t) => [t.file, examplesOf(t)]));
  const totals = THRESHOLDS.map(() => ({ found: 0, labelled: 0, correct: 0, proposed: 0 }));
  // Folds interleave the transcripts, so each mixes the fixture sets.
  for (let k = 0; k < FOLDS; k++) {
    const weights = learn(transcripts.filter((_, i) => i % FOLDS !== k).flatMap((t) => examples.get(t.file)!));
    const test = transcripts.filter((_, i) => i % FOLDS === k);
    for (const [i, threshold] of THRESHOLDS.entries()) {
      const r = await evaluate(test, new LocalExtractor(new SentenceModel(modelData(weights, threshold, { transcripts: 0, sentences: 0, labels: 0 }))));
      for (const t of Object.values(r.perType)) {
        totals[i].found += t.found;
        totals[i].labelled += t.labelled;
        totals[i].correct += t.correct;
        totals[i].proposed += t.proposed;
      }
    }
  }
  return totals.map((t, i) => {
    const recall = t.found / t.labelled;
    const precision = t.correct / Math.max(1, t.proposed);
    return { threshold: THRESHOLDS[i], recall, precision, f1: (2 * recall * precision) / Math.max(1e-9, recall + precision) };
  });
}

/** The model trained on every transcript, proposing at the given threshold. */
export function fit(transcripts: LabelledTranscript[], threshold: number): SentenceModelData {
  const all = transcripts.flatMap(examplesOf);
  const labels = transcripts.reduce((n, t) => n + t.labels.length, 0);
  return modelData(learn(all), threshold, { transcripts: transcripts.length, sentences: all.length, labels });
}
