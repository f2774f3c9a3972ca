import type { Token } from '../../core/nlp.ts';

/**
 * Spoken English made readable for a headline or a claim: without fillers, asides, restarts
 * and what the speaker took back, and the shapes of words a phrase may not end on.
 */

const FILLER_WORDS = new Set(['um', 'uh', 'er', 'erm', 'hmm', 'uhm', 'mm']);
/** Openers that carry no content: "So,", "Well,", "Honestly", "Oh", "Yeah". */
const OPENERS = new Set(['so', 'well', 'honestly', 'basically', 'actually', 'yeah', 'yes', 'okay', 'ok', 'oh', 'and', 'but', 'or', 'like', 'anyway', 'right', 'look', 'see', 'now', 'then', 'except', 'also']);

/** An opener with no content; "Which, …" picks up the last turn's thread only when a comma follows ("Which is why" stays). */
const opens = (t: Token, next: Token | undefined) => OPENERS.has(t.text.toLowerCase()) || (t.text.toLowerCase() === 'which' && next?.text === ',');

/**
 * The sentence's tokens without fillers ("um", "you know", "I mean", "like" before a number)
 * and spoken asides; a headline also drops hedges ("I think"), which a claim keeps.
 */
export function contentOf(tokens: Token[], hedges: 'keep' | 'drop' = 'keep'): Token[] {
  const out: Token[] = [];
  tokens = dropCorrections(dropRestarts(dropAsides(dropRetelling(tokens), hedges === 'drop' ? ASIDE_OR_HEDGE : ASIDE)));
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const w = t.text.toLowerCase();
    const next = tokens[i + 1]?.text.toLowerCase();
    if (FILLER_WORDS.has(w)) continue;
    // "Once you know, it works": after "once", "if", "when", "until", "as soon as" it is what you know, not a filler.
    const known = /^(?:once|if|when|until|unless|before|after|as soon as|soon as)$/i.test(out[out.length - 1]?.text ?? '');
    if ((w === 'you' && next === 'know' && !known) || (w === 'i' && next === 'mean' && tokens[i + 2]?.pos === 'PUNCT')) {
      i++;
      continue;
    }
    // "like" before a number or a pause is a filler, but not the verb of "what I'd like." or "I like."
    const verbLike = /^(?:would|'d|do|did|really|i|we|you|they)$/i.test(out[out.length - 1]?.text ?? '');
    // "things like 'POS 4471'": before a quotation after a noun, "like" gives an example.
    const example = /^['"“‘]$/.test(tokens[i + 1]?.text ?? '') && /^(?:NOUN|PRON|PROPN)$/.test(out[out.length - 1]?.pos ?? '');
    if (w === 'like' && !verbLike && !example && (t.pos === 'INTJ' || tokens[i + 1]?.pos === 'NUM' || tokens[i + 1]?.pos === 'PUNCT')) continue;
    out.push(t);
  }
  // Openers and the punctuation after them, then stray punctuation left by removed fillers.
  for (;;) {
    while (out.length && (out[0].pos === 'PUNCT' || out[0].pos === 'INTJ' || (opens(out[0], out[1]) && out.length > 3))) out.shift();
    // "The thing is, …", "The problem was, …": a frame, not the content.
    const frame = /^the (?:thing|problem|issue|truth|trouble|point) (?:is|was) ,$/i.test(out.slice(0, 4).map((t) => t.text).join(' ')) && out.length > 6;
    // "The problem is it sends me across…", "The main issue was that the form forgot…": the same frame, unpunctuated.
    const head = /^the (?:(?:main|only|real|big|biggest) )?(?:problem|issue|trouble) (?:is|was) (?:that )?/i.exec(out.slice(0, 6).map((t) => t.text).join(' '));
    const said = head ? head[0].trim().split(' ').length : 0;
    if (!frame && head && /^(?:PRON|DET|PROPN|NOUN)$/.test(out[said]?.pos ?? '') && out.slice(said + 1, said + 5).some((t) => t.pos === 'VERB' || t.pos === 'AUX') && out.length > said + 3) {
      out.splice(0, said);
      continue;
    }
    if (!frame) break;
    out.splice(0, 4);
  }
  return out.filter((t, i) => !(t.pos === 'PUNCT' && t.text === ',' && (i === 0 || out[i - 1]?.text === ',')));
}

const ASIDES = "um|uh|er|erm|uhm|like|you know|i mean|basically|honestly|actually|literally|what (?:do|did) (?:you|they|we) call (?:it|them)|what 's (?:it|that) called|what is (?:it|that) called|you see|let 's say|so to speak|how do (?:i|you) put it|how do you say|if you (?:follow|get) me|(?:if )?you know what i mean|if that makes sense|(?:like|as) i (?:said|say|mentioned)";
/** What a speaker says between commas that is not about the moment: fillers and "…, what do they call it, …". */
const ASIDE = new RegExp(`^(?:${ASIDES})$`, 'i');
/** The same, and the hedges a headline leaves out ("…, I guess, …"). */
const ASIDE_OR_HEDGE = new RegExp(`^(?:${ASIDES}|i (?:guess|think|suppose|reckon))$`, 'i');

const sameWord = (a: Token | undefined, b: Token | undefined) => !!a && !!b && a.text.toLowerCase() === b.text.toLowerCase();

/** A word that opens a clause of its own: a subject pronoun, "there", a conjunction. */
const opensClause = (t: Token | undefined) => !!t && (t.pos === 'CCONJ' || t.pos === 'SCONJ' || /^(?:i|you|he|she|we|they|it|there|this|that|so|then)$/i.test(t.text));
/** "I opened the app, um, nothing loaded": what follows the aside has a subject and a verb of its own before the next pause. */
const clauseAt = (tokens: Token[], from: number) => {
  for (let k = from + 1; k < tokens.length && tokens[k].pos !== 'PUNCT'; k++) {
    const t = tokens[k];
    if ((t.pos === 'VERB' || t.pos === 'AUX') && !/ing$/i.test(t.text) && tokens[k - 1]?.text.toLowerCase() !== 'to') return true;
  }
  return false;
};
/** "the sync, what's it called, the bridge thing": a thing named again keeps its comma. */
const renames = (before: Token, after: Token | undefined) => /^(?:NOUN|PROPN)$/.test(before.pos) && /^(?:DET|PROPN)$/.test(after?.pos ?? '');

/**
 * Without the asides set off by commas. Inside a phrase ("as a, what do they call it, a CSV",
 * "the flights are, um, doable", "spent, like, twenty minutes") both commas go, and words said
 * again after it come once; between clauses ("…together, you see, you open each…") one comma stays.
 */
function dropAsides(tokens: Token[], aside: RegExp): Token[] {
  const out = [...tokens];
  /** The punctuation that closes what starts after `from` (the end when none does). */
  const closeAfter = (from: number) => {
    const close = out.findIndex((t, j) => j > from && t.pos === 'PUNCT');
    return close < 0 ? out.length : close;
  };
  // Left to right, so that asides in a row are seen from their first comma.
  for (let i = 1; i < out.length; i++) {
    if (out[i].text !== ',') continue;
    let end = closeAfter(i);
    if (end === i + 1 || !aside.test(out.slice(i + 1, end).map((t) => t.text).join(' '))) continue;
    // "was, um, basically, impossible": asides in a row are one.
    for (let more = closeAfter(end); out[end]?.text === ',' && more > end + 1 && aside.test(out.slice(end + 1, more).map((t) => t.text).join(' ')); more = closeAfter(end)) end = more;
    if (out[end]?.text !== ',') {
      out.splice(i, end - i);
      i--;
      continue;
    }
    const before = out[i - 1];
    const after = out[end + 1];
    // "it's, um, it's fine", "a, what do they call it, a CSV": the restart is what they meant.
    const repeats = sameWord(out[i - 2], after) && sameWord(before, out[end + 2]) ? 2 : sameWord(before, after) || (before.pos === 'DET' && after?.pos === 'DET') ? 1 : 0;
    if (repeats) out.splice(i - repeats, end - i + 1 + repeats);
    // "'cause, uh, some car parks …": a spoken "because" the tagger does not know leaves nothing to pause after either.
    else if (dangling(before) || /^(?:'cause|cause|cos|coz)$/i.test(before.text) || !(opensClause(after) || renames(before, after) || clauseAt(out, end + 1))) out.splice(i, end - i + 1);
    else out.splice(i + 1, end - i);
    i = Math.max(0, i - 1 - repeats);
  }
  return out;
}

/** "Like I said, …", "As I mentioned, …": a pointer back to what was said, not the content; "Let me see, …" is time to think. */
function dropRetelling(tokens: Token[]): Token[] {
  const head = tokens.slice(0, 4).map((t) => t.text.toLowerCase()).join(' ');
  const m = /^(?:(?:like|as) (?:i|we) (?:said|say|mentioned|wrote|told you)|let me (?:see|think)) ,/.exec(head);
  if (m) return tokens.slice(4);
  // "I told you, I opened the app…", "i already said i opened…": the retelling's complaint, then the moment again.
  const told = /^(?:i|we) (?:just |already )?(?:told you|said)(?: ,)? (?=(?:i|we) )/.exec(tokens.slice(0, 6).map((t) => t.text.toLowerCase()).join(' '));
  if (told) return tokens.slice(told[0].trim().split(' ').length);
  // "To answer you: show the class times first", "Correction to my earlier note: …", "What I was saying, …": a frame, then the moment.
  const frame = /^(?:to answer (?:you|your question)|(?:i )?just said|correction(?: to my (?:earlier|last|first) (?:note|answer))?|(?:what )?i was saying(?: was)?|i 'll be honest|to be honest) [:,] /.exec(tokens.slice(0, 9).map((t) => t.text.toLowerCase()).join(' ') + ' ');
  return frame && tokens.length > frame[0].trim().split(' ').length + 2 ? tokens.slice(frame[0].trim().split(' ').length) : tokens;
}

/** "Boots, no sorry, PillPal makes you…": what the speaker takes back goes, with the correction marker. */
function dropCorrections(tokens: Token[]): Token[] {
  const out = [...tokens];
  for (let i = 1; i < out.length - 2; i++) {
    if (out[i].text !== ',') continue;
    const close = out.findIndex((t, j) => j > i && t.text === ',');
    if (close < 0 || close - i > 4 || !/^(?:no sorry|sorry|no wait|or rather|i mean|no , sorry)$/i.test(out.slice(i + 1, close).map((t) => t.text).join(' '))) continue;
    // Back to the start of what was taken back: the previous comma or the sentence's start.
    const from = out.slice(0, i).findLastIndex((t) => t.text === ',') + 1;
    if (i - from > 4) continue;
    out.splice(from, close - from + 1);
    i = from;
  }
  return out;
}

/** A restart across a comma comes once: "there's no, there's no message", "told me to, to use", "That was, honestly that was great". */
function dropRestarts(tokens: Token[]): Token[] {
  const out = [...tokens];
  // "That was, I wanted the floor to swallow me": a start left unfinished at its verb, then the sentence said again.
  const verbAt = out.findIndex((t) => t.pos === 'AUX' || t.pos === 'VERB');
  const comma = out[verbAt + 1]?.text === ',' ? 1 : 0;
  const again = verbAt + 1 + comma;
  if (verbAt >= 1 && verbAt <= 2 && out[verbAt].pos === 'AUX' && (SUBJECTS.has(out[again]?.text.toLowerCase() ?? '') || (comma && out[again]?.pos === 'PROPN')) && out.slice(again + 1, again + 3).some((t) => t.pos === 'VERB' || t.pos === 'AUX')) {
    out.splice(0, again);
  }
  for (let i = out.length - 2; i >= 1; i--) {
    if (out[i].text !== ',') continue;
    // A word such as "honestly" may sit at the start of the restart.
    const skip = /^(?:honestly|really|actually|basically|like|um|uh)$/i.test(out[i + 1]?.text ?? '') ? 1 : 0;
    for (let n = Math.min(4, i); n >= 1; n--) {
      const before = out.slice(i - n, i);
      const after = out.slice(i + 1 + skip, i + 1 + skip + n);
      // Only a restart: the first try breaks off unfinished ("there's no,", "to,"), unlike "love it, it looks proper".
      const last = before[n - 1];
      if (after.length === n && before.every((t, k) => sameWord(t, after[k])) && dangling(last) && !particle(last, before[n - 2], before[n - 3])) {
        out.splice(i - n, n + 1 + skip);
        break;
      }
    }
  }
  return out;
}

/** Words a phrase cannot end on. */
const DANGLING = new Set(['PUNCT', 'CCONJ', 'SCONJ', 'ADP', 'AUX', 'PART']);
/** Determiners that need a noun after them ("that" and "this" can close a phrase). */
const ARTICLES = new Set(['the', 'a', 'an', 'every', 'each', 'some', 'any', 'no', 'another', 'my', 'our', 'your', 'their']);
/** Subjects left without their verb by a cut ("to tell them they"). */
const SUBJECTS = new Set(['i', 'we', 'they', 'he', 'she', 'you']);
export const dangling = (t: Token) => (DANGLING.has(t.pos) && t.text !== "n't") || ARTICLES.has(t.text.toLowerCase()) || (t.pos === 'PRON' && SUBJECTS.has(t.text.toLowerCase()));
const PARTICLES = new Set(['up', 'out', 'through', 'back', 'off', 'down', 'over', 'away', 'around', 'in', 'on']);
/** "give up", "log in", "see it through": a particle after its verb (and its object pronoun) ends a phrase well. */
export const particle = (t: Token, before: Token | undefined, verb: Token | undefined) =>
  (t.pos === 'ADP' || t.pos === 'PART') && /^[a-z]+$/i.test(t.text) &&
  PARTICLES.has(t.text.toLowerCase()) &&
  (before?.pos === 'VERB' || (before?.pos === 'PRON' && /^(?:it|them|this|that)$/i.test(before.text) && verb?.pos === 'VERB'));
