import type { ExtractedEvidence, Extractor } from '../tools/evidence/types.ts';
import { matches, turnsOf, type Label, type LabelledTranscript } from './corpus.ts';

export interface Evaluation {
  perType: Record<string, { labelled: number; found: number; proposed: number; correct: number }>;
  recall: number;
  precision: number;
  misses: Array<{ file: string; label: Label }>;
  extras: Array<{ file: string; evidence: Pick<ExtractedEvidence, 'signal_type' | 'quote'> }>;
}

/**
 * Runs an extractor over labelled transcripts and scores it. Recall = labels matched by some
 * proposal / labels; precision = proposals matching some label / proposals.
 */
export async function evaluate(transcripts: LabelledTranscript[], extractor: Extractor): Promise<Evaluation> {
  const perType: Evaluation['perType'] = {};
  const misses: Evaluation['misses'] = [];
  const extras: Evaluation['extras'] = [];
  const bucket = (t: string) => (perType[t] ??= { labelled: 0, found: 0, proposed: 0, correct: 0 });
  for (const { name, file, labels } of transcripts) {
    const found = await extractor.extract(turnsOf(file), { studyGoals: [] });
    for (const l of labels) {
      bucket(l.type).labelled++;
      if (found.some((e) => matches(e, l))) bucket(l.type).found++;
      else misses.push({ file: name, label: l });
    }
    for (const e of found) {
      bucket(e.signal_type).proposed++;
      if (labels.some((l) => matches(e, l))) bucket(e.signal_type).correct++;
      else extras.push({ file: name, evidence: { signal_type: e.signal_type, quote: e.quote } });
    }
  }
  const sum = (k: 'labelled' | 'found' | 'proposed' | 'correct') => Object.values(perType).reduce((n, t) => n + t[k], 0);
  return { perType, recall: sum('found') / sum('labelled'), precision: sum('correct') / Math.max(1, sum('proposed')), misses, extras };
}
