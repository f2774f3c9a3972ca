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

/** The model's lexicon has the word ("paper", "excel"), as opposed to a name it never saw ("Trello", "Xero"). */
export function isKnownWord(word: string): boolean {
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

/**
 * A capital on a sentence's first word is not a name ("Invoices."): it is a word the model knows,
 * tagged as a common noun or modifier once lower case, and no other word of the phrase is capitalised.
 * "Trello" (unknown), "Excel" (a verb in lower case) and "Google Sheets" keep theirs.
 */
function onlyStartsSentence(word: string, sentence: string, span: Token[]): boolean {
  if (span.slice(1).some((x) => /^[A-Z]/.test(x.text))) return false;
  const first = parse(lowerFirst(sentence))[0]?.tokens[0];
  if (!first || !(isKnownWord(word.toLowerCase()) || isKnownWord(first.lemma))) return false;
  const pos = first.pos;
  return pos === 'NOUN' || pos === 'ADJ' || pos === 'NUM' || pos === 'DET' || pos === 'PRON';
}
const HEAD = new Set(['NOUN', 'PROPN']);
const MODIFIER = new Set(['ADJ', 'NUM', 'NOUN', 'PROPN']);
const VAGUE_HEADS = new Set(['thing', 'things', 'stuff', 'lot', 'bit', 'way', 'time', 'times', 'kind', 'sort', 'one', 'ones']);

/**
 * Noun phrases of a text, longest first within each sentence: an optional determiner or
 * possessive, modifiers, and a noun head ("the confirm button", "my manager", "last month's report").
 * The small model tags some noun compounds' first word as a verb ("confirm button"), so a
 * verb between a determiner and a noun counts as a modifier.
 */
export function nounPhrases(text: string): string[] {
  const phrases: string[] = [];
  for (const s of parse(text)) {
    const t = s.tokens;
    let i = 0;
    while (i < t.length) {
      const start = i;
      const det = t[i].pos === 'DET' || (t[i].pos === 'PRON' && /^(my|our|your|his|her|their|its)$/i.test(t[i].text));
      let j = det ? i + 1 : i;
      let lastHead = -1;
      while (j < t.length) {
        const tok = t[j];
        const compound = tok.pos === 'VERB' && det && j === i + 1 && t[j + 1] && HEAD.has(t[j + 1].pos);
        const possessive = tok.pos === 'PART' && tok.text === "'s" && lastHead === j - 1;
        if (HEAD.has(tok.pos)) lastHead = j;
        else if (!(MODIFIER.has(tok.pos) || compound || possessive)) break;
        j++;
      }
      if (lastHead >= 0) {
        const span = t.slice(start, lastHead + 1);
        const head = t[lastHead].text.toLowerCase();
        let phrase = join(span);
        if (start === 0 && /^[A-Z][a-z]/.test(phrase) && onlyStartsSentence(t[0].text, s.text, span)) phrase = lowerFirst(phrase);
        if (!VAGUE_HEADS.has(head)) phrases.push(phrase);
        i = lastHead + 1;
      } else {
        i = Math.max(j, start + 1);
      }
    }
  }
  return phrases;
}
