import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { labelledTranscripts, matches, turnsOf, type Label } from '../../training/corpus.ts';
import { LocalExtractor } from '../../tools/evidence/local-extractor.ts';
import { evaluate, type Evaluation } from '../../training/evaluate.ts';

export { labelledTranscripts, matches, turnsOf, type Evaluation, type Label };

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'transcripts');
/** Transcripts written after the lexicon was tuned and never tuned against: an honest estimate. */
export const UNSEEN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'unseen');
/** Tuning transcripts in new domains (2026-11-23): rules are developed on these, never on the held-out set. */
export const TUNING = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tuning');
/** Written 2026-11-23 before the extractor rebuild, never to be tuned on (see its README.md). */
export const HELDOUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'heldout');
/** Long interviews labelled by two people who never saw the training guide (see its README.md): how another team's labels score. */
export const INDEPENDENT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'independent');

/** Runs the local extractor over every labelled fixture of a folder and scores it against the labels. */
export async function evaluateLocalExtractor(dir = FIXTURES, extractor = new LocalExtractor()): Promise<Evaluation> {
  return evaluate(labelledTranscripts(dir), extractor);
}
