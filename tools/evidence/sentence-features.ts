import { parse, type Token } from '../../core/nlp.ts';
import { intentOf } from './lexicon.ts';

/** Where a sentence sits: the question it answers and its place in the participant's turn. */
export interface SentenceContext {
  /** The interviewer's last question before this turn, or null. */
  question: string | null;
  /** Index of the sentence in its turn. */
  index: number;
  /** Number of sentences in the turn. */
  count: number;
  /** The word cues (lexiconCues) of the sentence and of the sentences before and after it in the same turn. */
  cues: { own: string[]; before: string[]; after: string[] };
  /** The lemmas of the sentences before and after it in the same turn. */
  neighbours: { before: string[]; after: string[] };
}

/** A sentence as the parse reads it, once: its own features and its neighbours' come from this. */
export interface ReadSentence {
  text: string;
  tokens: Token[];
  sentiment: number;
  /** Its words' lemmas, each once, marked "¬" inside a negation's scope. */
  lemmas: string[];
}

const FIRST_PERSON = new Set(['i', 'we', 'me', 'us', 'my', 'our']);
const MODALS = new Set(['would', 'could', 'should', 'might', 'will', "'d", 'can', 'must']);
const SKIP_POS = new Set(['PUNCT', 'SPACE', 'SYM', 'X']);

const word = (t: Token) => t.lemma.toLowerCase();

const POSSESSIVE = /^('s|’s)$/i;

/**
 * "Derek's" as "Derek" + "'s", and the word before a possessive keeps its text as its lemma.
 * wink-nlp learns words as it reads: it tokenises a possessive as one token the first time and as
 * two afterwards, and when it splits one it lemmatises the word ("mom" → "mum"). Doing both here
 * keeps the features of a sentence the same whatever the process read before.
 */
function splitPossessives(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const m = /^(.+)('s|’s)$/i.exec(t.text);
    if (m) {
      out.push({ ...t, text: m[1], lemma: m[1] }, { ...t, text: m[2], lemma: m[2], pos: 'PART', space: '' });
      continue;
    }
    const before = out.at(-1);
    if (before && t.pos === 'PART' && POSSESSIVE.test(t.text)) out[out.length - 1] = { ...before, lemma: before.text };
    out.push(t);
  }
  return out;
}

let lastQuestion: { text: string; lemmas: string[] } | null = null;
/** Content lemmas of a question, for "q:" features (what the answer was asked about). */
function questionLemmas(question: string): string[] {
  if (lastQuestion?.text === question) return lastQuestion.lemmas;
  const out = new Set<string>();
  for (const s of parse(question)) for (const t of splitPossessives(s.tokens)) if (!SKIP_POS.has(t.pos) && t.pos !== 'DET') out.add(word(t));
  lastQuestion = { text: question, lemmas: [...out] };
  return lastQuestion.lemmas;
}

const marked = (t: Token) => (t.negated ? '¬' : '') + word(t);

export function readSentence(text: string): ReadSentence {
  const parsed = parse(text);
  const tokens = splitPossessives(parsed.flatMap((s) => s.tokens));
  const lemmas = [...new Set(tokens.filter((t) => !SKIP_POS.has(t.pos)).map(marked))];
  return { text, tokens, sentiment: parsed.reduce((n, s) => n + s.sentiment, 0), lemmas };
}

/** Feature prefixes of the two views the model is trained on (training/fit.ts): the sentence's word triples, its neighbours' lemmas. */
export const TRIGRAM = 't:';
export const NEIGHBOUR = ['p:', 'n:'];

/**
 * The features the sentence model weighs for one participant sentence: lemmas, lemma pairs and
 * triples (marked when inside a negation's scope), who does what (first-person subject with its
 * verb), modality, sentiment, length, the word cues of lexicon.ts in it and its neighbours, the
 * lemmas of its neighbours in the turn, and the interviewer's question for the opening
 * sentences of an answer.
 */
export function sentenceFeatures(sentence: ReadSentence, ctx: SentenceContext): string[] {
  const f = new Set<string>(['bias']);
  const { text, tokens, sentiment } = sentence;
  const words = tokens.filter((t) => !SKIP_POS.has(t.pos));
  const seq = ['^', ...words.map(marked), '$'];
  for (let i = 1; i < seq.length; i++) {
    if (i < seq.length - 1) f.add(`w:${seq[i]}`);
    f.add(`b:${seq[i - 1]}_${seq[i]}`);
    if (i > 1) f.add(`${TRIGRAM}${seq[i - 2]}_${seq[i - 1]}_${seq[i]}`);
  }
  for (const w of ctx.neighbours.before) f.add(`${NEIGHBOUR[0]}${w}`);
  for (const w of ctx.neighbours.after) f.add(`${NEIGHBOUR[1]}${w}`);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!FIRST_PERSON.has(t.text.toLowerCase()) || t.pos !== 'PRON') continue;
    const verb = tokens.slice(i + 1, i + 4).find((x) => x.pos === 'VERB' || x.pos === 'AUX');
    if (verb) f.add(`sv:${t.text.toLowerCase() === 'we' ? 'we' : 'i'}_${verb.negated ? '¬' : ''}${word(verb)}`);
    f.add('first_person');
  }
  for (const t of tokens) if (MODALS.has(t.text.toLowerCase())) f.add(`modal:${t.text.toLowerCase()}`);
  if (tokens.some((t) => t.negated)) f.add('negation');
  if (/\?\s*$/.test(text)) f.add('asks');
  if (text.includes('!')) f.add('exclaims');
  f.add(sentiment <= -0.3 ? 'sent:--' : sentiment < -0.05 ? 'sent:-' : sentiment > 0.3 ? 'sent:++' : sentiment > 0.05 ? 'sent:+' : 'sent:0');
  const n = words.length;
  f.add(n < 4 ? 'len:1-3' : n < 9 ? 'len:4-8' : n < 17 ? 'len:9-16' : 'len:17+');
  for (const cue of ctx.cues.own) f.add(cue);
  for (const cue of ctx.cues.before) f.add(`before:${cue}`);
  for (const cue of ctx.cues.after) f.add(`after:${cue}`);
  const at = ctx.index === 0 ? 'first' : ctx.index === 1 ? 'second' : 'later';
  f.add(`at:${at}`);
  if (ctx.index === ctx.count - 1) f.add('at:last');
  const intent = intentOf(ctx.question);
  if (intent) {
    f.add(`intent:${intent}@${at}`);
    f.add(`intent:${intent}`);
  }
  if (ctx.question && ctx.index < 2) for (const q of questionLemmas(ctx.question)) f.add(`q:${q}`);
  return [...f];
}
