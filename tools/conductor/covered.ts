import { parse } from '../../core/nlp.ts';

/**
 * Whether an earlier answer already speaks to a scripted question ("…the e-sign step took the
 * longest…" before "Which step took longest?"). Only said, never used to skip: a wrong skip
 * would lose the answer, while a question asked with "you may have touched on this" loses nothing.
 */

/** Words too common in any interview to tie an answer to a question. */
const COMMON = new Set([
  'be', 'have', 'do', 'get', 'go', 'make', 'use', 'let', 'see', 'come', 'give', 'feel', 'think', 'say', 'tell', 'know', 'like', 'want', 'need', 'happen', 'try',
  'thing', 'anything', 'something', 'everything', 'nothing', 'way', 'time', 'lot', 'bit', 'one', 'kind', 'sort', 'today', 'product', 'app',
  'good', 'bad', 'last', 'first', 'next', 'other', 'new', 'much', 'many', 'more', 'else', 'able', 'sure',
]);

/**
 * The distinct content words of a text, as lemma and word class: nouns and names, verbs,
 * adjectives. The class keeps "the hiring manager" apart from "the last new hire".
 */
function contentOf(text: string, withoutNames = false): Set<string> {
  const key = withoutNames ? `?${text}` : text;
  const known = seen.get(key);
  if (known) return known;
  const out = new Set<string>();
  for (const sentence of parse(text)) {
    for (const t of sentence.tokens) {
      // A name in the question ("the Plan builder", "Peoplely") is what the whole interview is about, not what this question asks.
      if (withoutNames && t !== sentence.tokens[0] && /^[A-Z]/.test(t.text)) continue;
      const kind = t.pos === 'PROPN' ? 'NOUN' : t.pos;
      if (kind !== 'NOUN' && kind !== 'VERB' && kind !== 'ADJ') continue;
      const lemma = t.lemma.toLowerCase();
      if (lemma.length > 1 && /^[a-z]/.test(lemma) && !COMMON.has(lemma)) out.add(`${kind}:${lemma}`);
    }
  }
  // Every turn reads the interview's answers again: each is parsed once (a 4,000-character answer takes ~9 ms).
  if (seen.size >= SEEN_MAX) seen.delete(seen.keys().next().value!);
  seen.set(key, out);
  return out;
}
const seen = new Map<string, Set<string>>();
const SEEN_MAX = 500;
/** The answers looked at: the latest, so that a very long interview costs no more a turn than a long one. */
const RECENT_ANSWERS = 30;

/** "Who was it for?" is told by "…for my daughter's check-up". */
const ASKS_FOR_WHOM = /^(?:and )?(?:who (?:was|is) (?:it|this|that) for|for whom)\?$/i;
const FOR_SOMEONE = /\bfor (?:my|myself|our|ourselves|his|her|their|a (?:client|customer|friend|colleague|relative|neighbou?r))\b/i;

/** A question that asks for one occasion. */
const ASKS_FOR_AN_OCCASION = /\b(?:the last (?:time|\w+ you)|a time when|an example|the most recent)\b/i;
/** An answer that says when something happened ("Monday I pulled…", "last week", "in March", "two days ago"). */
const TELLS_WHEN = /\b(?:yesterday|today|last (?:week|month|time|year|\w+day)|(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\w+ (?:days|weeks|months) ago|in (?:january|february|march|april|may|june|july|august|september|october|november|december))\b/i;

/**
 * At least two of the question's content words, and half of them, in one earlier answer; a
 * question of three words or fewer with one content word, in the last two answers. Questions
 * with none ("What did you use for it before?") are never matched.
 */
export function coveredBefore(question: string, answers: string[]): boolean {
  if (ASKS_FOR_WHOM.test(question.trim())) return answers.some((a) => FOR_SOMEONE.test(a));
  // "Could you walk me through the last report you built?" asks for one occasion: "I build the weekly reports" is the job, not it.
  if (ASKS_FOR_AN_OCCASION.test(question) && !answers.some((a) => TELLS_WHEN.test(a))) return false;
  const asked = contentOf(question, true);
  if (asked.size === 0) return false;
  // "Anything confusing?" just after "the calendar was the confusing part": one word, said in the answers just before.
  if (asked.size === 1) {
    // Only a question as short as a note is that one word: "What would make it more useful?" is not asked by "useful".
    if (question.trim().split(/\s+/).length > 3) return false;
    // The answer before it, or the one before that when a follow-up came in between.
    const [word] = asked;
    return answers.slice(-2).some((answer) => contentOf(answer).has(word));
  }
  return answers.slice(-RECENT_ANSWERS).some((answer) => {
    const said = contentOf(answer);
    let shared = 0;
    for (const word of asked) if (said.has(word)) shared++;
    return shared >= 2 && shared * 2 >= asked.size;
  });
}
