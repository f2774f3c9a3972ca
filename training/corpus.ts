import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignRoles, parseTranscript } from '../tools/interviews/transcript-formats.ts';
import { decodeTextFile } from '../core/text-file.ts';
import type { Turn } from '../tools/evidence/types.ts';

const FIXTURE_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');

/**
 * The labelled transcripts the sentence model learns from. test/fixtures/heldout is never one
 * of them: it only measures.
 */
export const TRAINING_SETS = ['transcripts', 'unseen', 'tuning', 'training'].map((d) => path.join(FIXTURE_ROOT, d));

export interface Label {
  type: string;
  quote: string;
}

export interface LabelledTranscript {
  name: string;
  file: string;
  labels: Label[];
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]/g, '').replace(/\s+/g, ' ').trim();
/** A quote matches a label when the types agree and one quote contains the other. */
export const matches = (e: { signal_type: string; quote: string }, l: Label) => e.signal_type === l.type && covers(e.quote, l.quote);
/** One text contains the other, ignoring case, punctuation and spacing. */
export const covers = (a: string, b: string) => norm(a).includes(norm(b)) || norm(b).includes(norm(a));

/** The transcripts of a fixture folder with their labels (a README or other file without labels is skipped). */
export function labelledTranscripts(dir: string): LabelledTranscript[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => !f.endsWith('.labels.json') && fs.existsSync(path.join(dir, f.replace(/\.\w+$/, '.labels.json'))))
    .sort()
    .map((name) => ({ name, file: path.join(dir, name), labels: JSON.parse(fs.readFileSync(path.join(dir, name.replace(/\.\w+$/, '.labels.json')), 'utf8')) as Label[] }));
}

export function turnsOf(file: string): Turn[] {
  const { segments } = parseTranscript(decodeTextFile(fs.readFileSync(file)));
  const roles = assignRoles(segments);
  return segments.map((s, i) => ({ segment_id: `seg_${i}`, idx: i, role: roles[i], speaker: s.speaker, start_ms: s.start_ms, end_ms: s.end_ms, text: s.text }));
}
