import type { ItemSentence, ItemToken, Model, WinkMethods } from 'wink-nlp';
import type winkNLP from 'wink-nlp';
import { lazyRequire } from './lazy.ts';

/**
 * English NLP for the conductor (and later the extractor): wink-nlp with its small web model,
 * offline. Both (~1 MB of model, ~2 MiB of heap for the library) are loaded on first use, once
 * per process: a server that has no interview to read holds neither.
 */
const winkLibrary = lazyRequire<typeof winkNLP>(import.meta.url, 'wink-nlp');
const winkModel = lazyRequire<Model>(import.meta.url, 'wink-eng-lite-web-model');
let engine: WinkMethods | null = null;
/** The id wink gives the first word its lexicon lacks: every word it knows has a lower one. */
let firstUnknown = 0;

function nlp(): WinkMethods {
  if (!engine) {
    engine = winkLibrary()(winkModel());
    // Read before anything else, so no earlier unknown word holds a lower id.
    firstUnknown = engine.readDoc('qzxqvwkj').tokens().itemAt(0).out(engine.its.uniqueId) as unknown as number;
  }
  return engine;
}

/** Words of software the model's lexicon lacks, so they are not taken for names. */
const SOFTWARE_WORDS = new Set(['login', 'logins', 'logout', 'signup', 'inbox', 'username', 'screenshot', 'chatbot', 'autopay', 'paywall', 'dropdown', 'popup', 'apps', 'checkbox', 'sidebar', 'homepage', 'tooltip', 'navbar', 'webpage', 'backend', 'frontend', 'plugin', 'captcha', 'voicemail', 'workflow', 'workflows']);

/** The model's lexicon has the word ("paper", "excel"), as opposed to a name it never saw ("Trello", "Xero"). */
export function isKnownWord(word: string): boolean {
  if (SOFTWARE_WORDS.has(word.toLowerCase())) return true;
  const e = nlp();
  return (e.readDoc(word).tokens().itemAt(0)?.out(e.its.uniqueId) as unknown as number) < firstUnknown;
}

/** Universal POS tags as the model gives them (VERB, AUX, NOUN, PROPN, PRON, DET, ADJ, ADP, SCONJ, CCONJ, PART, ADV, PUNCT, …). */
export interface Token {
  text: string;
  lemma: string;
  pos: string;
  /** The token sits in the scope of a negation ("didn't like it": like, it). */
  negated: boolean;
  /** Whitespace before the token in the source, so a span can be put back together. */
  space: string;
}

export interface Sentence {
  text: string;
  tokens: Token[];
  /** The model's sentiment score, -1 (negative) to 1 (positive). */
  sentiment: number;
}

/** The sentences of `text`, each with its tokens. */
export function parse(text: string): Sentence[] {
  const { its } = nlp();
  const doc = nlp().readDoc(text);
  const out: Sentence[] = [];
  doc.sentences().each((s: ItemSentence) => {
    const tokens: Token[] = [];
    s.tokens().each((t: ItemToken) => {
      tokens.push({
        text: t.out(),
        lemma: t.out(its.lemma as unknown as typeof its.pos),
        pos: t.out(its.pos),
        negated: t.out(its.negationFlag) as unknown as boolean,
        space: t.out(its.precedingSpaces),
      });
    });
    out.push({ text: s.out(), tokens, sentiment: s.out(its.sentiment) as unknown as number });
  });
  return out;
}

/** Tokens back to text, keeping the source's spacing (the first token's leading space dropped). */
export function join(tokens: Token[]): string {
  return tokens.map((t, i) => (i === 0 ? '' : t.space) + t.text).join('');
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Product names that are also English words: capitalised, they name the product ("Excel", "Slack"). */
const NAMES_THAT_ARE_WORDS = new Set(['excel', 'outlook', 'teams', 'slack', 'notion', 'zoom', 'stripe', 'square', 'word', 'chrome', 'safari', 'windows', 'office', 'sage', 'access', 'pages', 'numbers', 'keynote', 'paypal', 'venmo',
  // First names that are also words ("Ben, and our investor…" is no "the ben").
  'ben', 'max', 'jack', 'frank', 'dawn', 'jean', 'ray', 'don', 'rob', 'sue', 'pat', 'kim', 'amber', 'wei', 'will']);

/**
 * A capital on a sentence's first word is not a name ("Invoices."): it is a word the model knows,
 * tagged as a common word once lower case, and no other word of the phrase is capitalised.
 * "Trello" (unknown), "Excel" (a product), "Sage 50" (a version) and "Google Sheets" keep theirs.
 */
function onlyStartsSentence(word: string, sentence: string, span: Token[]): boolean {
  if (span.slice(1).some((x) => /^[A-Z]/.test(x.text)) || span[1]?.pos === 'NUM' || NAMES_THAT_ARE_WORDS.has(word.toLowerCase())) return false;
  const first = parse(lowerFirst(sentence))[0]?.tokens[0];
  if (!first || !(isKnownWord(word.toLowerCase()) || isKnownWord(first.lemma))) return false;
  return ['NOUN', 'ADJ', 'NUM', 'DET', 'PRON', 'VERB', 'ADV'].includes(first.pos);
}
const HEAD = new Set(['NOUN', 'PROPN']);
const MODIFIER = new Set(['ADJ', 'NUM', 'NOUN', 'PROPN']);
const VAGUE_HEADS = new Set(['thing', 'things', 'stuff', 'lot', 'bit', 'way', 'time', 'times', 'kind', 'sort', 'one', 'ones']);
/** Adverbs that end like comparatives but modify no noun. */
const NOT_COMPARATIVE = new Set(['never', 'ever', 'however', 'rather', 'together', 'whatever', 'later', 'sooner']);

/** "two - factor" as one word "two-factor" (a noun modifier or head), as written without spaces. */
function joinHyphens(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const [a, dash, b] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    if (dash?.text === '-' && dash.space === '' && b && b.space === '' && /\w$/.test(a.text) && /^\w/.test(b.text)) {
      out.push({ ...a, text: `${a.text}-${b.text}`, lemma: `${a.text}-${b.lemma}`.toLowerCase(), pos: 'NOUN' });
      i += 2;
    } else out.push(a);
  }
  return out;
}

/** The phrase of t[start..] with a noun head: its last token's index, or -1. */
function headOf(t: Token[], start: number): { end: number; next: number } {
  const det = t[start].pos === 'DET' || (t[start].pos === 'PRON' && /^(my|our|your|his|her|their|its)$/i.test(t[start].text));
  let j = det ? start + 1 : start;
  let lastHead = -1;
  while (j < t.length) {
    const tok = t[j];
    const compound = tok.pos === 'VERB' && det && j === start + 1 && t[j + 1] && HEAD.has(t[j + 1].pos);
    const possessive = tok.pos === 'PART' && tok.text === "'s" && lastHead === j - 1;
    // The tagger takes some comparatives for adverbs ("Faster login").
    const comparative = tok.pos === 'ADV' && lastHead < 0 && /\w{3}(?:er|est)$/i.test(tok.text) && !NOT_COMPARATIVE.has(tok.text.toLowerCase()) && t[j + 1] && HEAD.has(t[j + 1].pos);
    // A version after a name is part of it ("Sage 50", "Windows 11").
    const version = tok.pos === 'NUM' && lastHead >= 0 && lastHead === j - 1 && t[lastHead].pos === 'PROPN';
    if (HEAD.has(tok.pos) || version) lastHead = j;
    else if (!(MODIFIER.has(tok.pos) || compound || possessive || comparative)) break;
    j++;
  }
  return { end: lastHead, next: Math.max(j, start + 1) };
}

/**
 * Noun phrases of a text, longest first within each sentence: an optional determiner or
 * possessive, modifiers, and a noun head ("the confirm button", "my manager", "last month's report");
 * two bare nouns joined by "and"/"or" are one phrase ("pen and paper").
 * The small model tags some noun compounds' first word as a verb ("confirm button"), so a
 * verb between a determiner and a noun counts as a modifier.
 */
export function nounPhrases(text: string): string[] {
  const phrases: string[] = [];
  for (const s of parse(text)) {
    const t = joinHyphens(s.tokens);
    let i = 0;
    while (i < t.length) {
      const start = i;
      const { end, next } = headOf(t, start);
      if (end < 0) {
        i = next;
        continue;
      }
      let last = end;
      const bare = (k: number) => t[k].pos !== 'DET' && t[k].pos !== 'PRON';
      if (bare(start) && end - start < 2 && /^(?:and|or)$/i.test(t[end + 1]?.text ?? '') && t[end + 2] && bare(end + 2)) {
        const other = headOf(t, end + 2);
        if (other.end >= 0 && other.end - (end + 2) < 2) last = other.end;
      }
      // A phrase said alone ("Month-end close.") keeps a last word the tagger took for an adjective or a verb.
      const alone = start === 0 && bare(start) && !t.some((x) => x.pos === 'AUX' || (x.pos === 'VERB' && x !== t[last + 1]));
      if (alone && (t[last + 1]?.pos === 'ADJ' || t[last + 1]?.pos === 'VERB') && (!t[last + 2] || t[last + 2].pos === 'PUNCT')) last += 1;
      const span = t.slice(start, last + 1);
      const head = t[last].text.toLowerCase();
      let phrase = join(span);
      if (start === 0 && /^[A-Z][a-z]/.test(phrase) && onlyStartsSentence(t[0].text, s.text, span)) phrase = lowerFirst(phrase);
      if (!VAGUE_HEADS.has(head)) phrases.push(phrase);
      i = last + 1;
    }
  }
  return phrases;
}
