import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ItemToken, Model, WinkMethods } from 'wink-nlp';
import type winkNLP from 'wink-nlp';

/**
 * Scores the words the product writes for people (evidence headlines, the questions a participant
 * hears) against labels written by people who never saw the code: test/fixtures/headlines and
 * test/fixtures/questions. Each label names the phrases the text must carry (`must`, copied from
 * the source) and what a researcher would write (`gold`).
 *
 * - recall: the share of must phrases the text carries (every content word of the phrase, by stem);
 * - precision: the share of the text's content words found in the must phrases or the gold text;
 * - form: the share of texts that break none of the hard rules (length, first person, …).
 */

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
export const HEADLINE_SETS = { tuning: path.join(FIXTURES, 'headlines', 'tuning.json'), heldout: path.join(FIXTURES, 'headlines', 'heldout.json') };
export const QUESTION_SETS = { tuning: path.join(FIXTURES, 'questions', 'tuning.json'), heldout: path.join(FIXTURES, 'questions', 'heldout.json') };

export interface HeadlineLabel {
  domain: string;
  type: string;
  quote: string;
  must: string[];
  gold: string;
}

export interface QuestionLabel {
  domain: string;
  mode: 'talk' | 'observe';
  title: string;
  instruction: string;
  must: string[];
  gold: string;
}

export const readLabels = <T>(file: string): T[] => JSON.parse(fs.readFileSync(file, 'utf8')) as T[];

let engine: WinkMethods | null = null;
const wink = () => {
  const require = createRequire(import.meta.url);
  return (engine ??= (require('wink-nlp') as typeof winkNLP)(require('wink-eng-lite-web-model') as Model));
};

/** Stems of the content words of a text: no stop words, punctuation, numbers' spelling kept. */
export function contentStems(text: string): string[] {
  const e = wink();
  const doc = e.readDoc(text.replace(/[’]/g, "'"));
  const out: string[] = [];
  doc.tokens().each((t: ItemToken) => {
    if (t.out(e.its.type) !== 'word' && t.out(e.its.type) !== 'number') return;
    if (t.out(e.its.stopWordFlag) as unknown as boolean) return;
    const w = t.out(e.its.normal);
    if (/^(?:'s|n't|'re|'ve|'ll|'d|'m|um|uh|like|just|really|so|yeah|okay|ok)$/.test(w)) return;
    out.push(t.out(e.its.stem as unknown as typeof e.its.normal));
  });
  return out;
}

export interface Score {
  items: number;
  mustFound: number;
  mustTotal: number;
  wordsGood: number;
  wordsTotal: number;
  formOk: number;
  recall: number;
  precision: number;
  form: number;
  /** The texts with their misses, for reading (never for tuning on held-out). */
  rows: Array<{ source: string; text: string; gold: string; missed: string[]; extra: string[]; broken: string[] }>;
}

/** Scores texts (one per label) by must-phrase recall, content-word precision and the form checks. */
export function score(labelled: Array<{ source: string; must: string[]; gold: string; text: string; broken: string[] }>): Score {
  const s: Score = { items: 0, mustFound: 0, mustTotal: 0, wordsGood: 0, wordsTotal: 0, formOk: 0, recall: 0, precision: 0, form: 0, rows: [] };
  for (const l of labelled) {
    const said = new Set(contentStems(l.text));
    const missed = l.must.filter((m) => !contentStems(m).every((w) => said.has(w)));
    const allowed = new Set([...l.must.flatMap(contentStems), ...contentStems(l.gold)]);
    const words = contentStems(l.text);
    const extra = words.filter((w) => !allowed.has(w));
    s.items++;
    s.mustTotal += l.must.length;
    s.mustFound += l.must.length - missed.length;
    s.wordsTotal += words.length;
    s.wordsGood += words.length - extra.length;
    if (!l.broken.length) s.formOk++;
    s.rows.push({ source: l.source, text: l.text, gold: l.gold, missed, extra, broken: l.broken });
  }
  s.recall = s.mustFound / Math.max(1, s.mustTotal);
  s.precision = s.wordsGood / Math.max(1, s.wordsTotal);
  s.form = s.formOk / Math.max(1, s.items);
  return s;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
export const scoreLine = (name: string, s: Score) => `${name}: recall ${pct(s.recall)} (${s.mustFound}/${s.mustTotal}), precision ${pct(s.precision)} (${s.wordsGood}/${s.wordsTotal}), form ${pct(s.form)} (${s.formOk}/${s.items})`;
