import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignRoles, decodeText, parseTranscript } from '../../tools/interviews/transcript-formats.ts';
import { LocalExtractor } from '../../tools/evidence/local-extractor.ts';
import type { ExtractedEvidence, Turn } from '../../tools/evidence/types.ts';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'transcripts');
/** Transcripts written after the lexicon was tuned and never tuned against: an honest estimate. */
export const UNSEEN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'unseen');
/** Written 2026-11-23 before the extractor rebuild, never to be tuned on (see its README.md). */
/** Tuning transcripts in new domains (2026-11-23): rules are developed on these, never on the held-out set. */
export const TUNING = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tuning');
export const HELDOUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'heldout');

export interface Label {
  type: string;
  quote: string;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]/g, '').replace(/\s+/g, ' ').trim();
/** A proposal matches a label when the types agree and one quote contains the other. */
export const matches = (e: { signal_type: string; quote: string }, l: Label) => e.signal_type === l.type && (norm(e.quote).includes(norm(l.quote)) || norm(l.quote).includes(norm(e.quote)));

/** The transcripts of a fixture folder with their labels (a README or other file without labels is skipped). */
export function labelledTranscripts(dir: string): Array<{ name: string; file: string; labels: Label[] }> {
  return fs
    .readdirSync(dir)
    .filter((f) => !f.endsWith('.labels.json') && fs.existsSync(path.join(dir, f.replace(/\.\w+$/, '.labels.json'))))
    .sort()
    .map((name) => ({ name, file: path.join(dir, name), labels: JSON.parse(fs.readFileSync(path.join(dir, name.replace(/\.\w+$/, '.labels.json')), 'utf8')) as Label[] }));
}

export function turnsOf(file: string): Turn[] {
  const { segments } = parseTranscript(decodeText(fs.readFileSync(file)));
  const roles = assignRoles(segments);
  return segments.map((s, i) => ({ segment_id: `seg_${i}`, idx: i, role: roles[i], speaker: s.speaker, start_ms: s.start_ms, end_ms: s.end_ms, text: s.text }));
}

export interface Evaluation {
  perType: Record<string, { labelled: number; found: number; proposed: number; correct: number }>;
  recall: number;
  precision: number;
  misses: Array<{ file: string; label: Label }>;
  extras: Array<{ file: string; evidence: Pick<ExtractedEvidence, 'signal_type' | 'quote'> }>;
}

/** Runs the local extractor over every labelled fixture and scores it against the labels. */
export async function evaluateLocalExtractor(dir = FIXTURES): Promise<Evaluation> {
  const extractor = new LocalExtractor();
  const perType: Evaluation['perType'] = {};
  const misses: Evaluation['misses'] = [];
  const extras: Evaluation['extras'] = [];
  const bucket = (t: string) => (perType[t] ??= { labelled: 0, found: 0, proposed: 0, correct: 0 });
  for (const { name, file, labels } of labelledTranscripts(dir)) {
    const found = await extractor.extract(turnsOf(file));
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
