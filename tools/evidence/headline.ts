import { join, parse, type Sentence, type Token } from '../../core/nlp.ts';
import { contentOf, dangling, particle } from './spoken.ts';
import { chatSpelledOut, plainGrammar, withApostrophes } from './plain-grammar.ts';
import { callsIt, namedThing, welcomeIf } from './wishes.ts';
import { HEADLINE_MAX } from './types.ts';
import { withoutStageDirections } from '../../core/stage-directions.ts';
import { escapeRegExp } from '../../core/regexp.ts';

export { HEADLINE_MAX };

const SPEAKER = new Set(['i', 'we']);
const OBJECT = new Set(['me', 'us']);
const POSSESSIVE: Record<string, string> = { my: 'their', our: 'their', mine: 'theirs', ours: 'theirs' };
const REFLEXIVE: Record<string, string> = { myself: 'themselves', ourselves: 'themselves' };
/** Words a first-person verb becomes for "the participant". */
const AGREE: Record<string, string> = { am: 'is', "'m": 'is', are: 'is', "'re": 'is', have: 'has', "'ve": 'has', do: 'does', were: 'was' };
/** A verb after a later first-person subject turned into "they": "I am gone" → "they are gone". */
const AGREE_THEY: Record<string, string> = { am: 'are', "'m": "'re", was: 'were' };
/** The first-person "I" a verb at `i` belongs to, past adverbs between them ("I really am"). */
const afterI = (tokens: Token[], i: number) => {
  let j = i - 1;
  while (j > 0 && tokens[j].pos === 'ADV') j--;
  return j >= 0 && tokens[j].pos === 'PRON' && tokens[j].text.toLowerCase() === 'i';
};
/** Conjunctions that open a sentence with its subordinate clause: "If they lose my streak again, I am gone". */
const LEADING_SUBORDINATE = new Set(['if', 'when', 'whenever', 'because', 'although', 'though', 'once', 'since', 'after', 'before', 'while', 'unless']);
const LEADING_ADVERBS = new Set(['just', 'really', 'always', 'never', 'still', 'usually', 'often', 'sometimes', 'also', 'actually', 'literally', 'basically', 'kind', 'sort', 'even', 'only', 'honestly', 'genuinely', 'truly', 'seriously']);
/** Adverbs that only hedge: passed over for the verb's agreement and left out of a headline ("I honestly don't know" → "Doesn't know"). */
const HEDGES = /^(?:honestly|genuinely|truly|seriously)$/i;

const MODAL = '(?:(?:would|could|really|actually|honestly|just|most|personally)\\s+)*';

/**
 * A pseudo-cleft says its verb twice: "What I'd really want is to see the route" is "I would
 * want to see the route", and "What I do now is take a screenshot" is "I take a screenshot".
 */
function uncleft(text: string): string {
  return text
    // "What I want is, I take the photo, it reads the amount": what they want is to do it themself.
    .replace(new RegExp(`\\bwhat (I|we) (${MODAL})(want|need|would like|'d like)(?: most)? (?:is|was),? \\1 (?=[a-z]+\\b)`, 'gi'), (_m, who: string, _modal: string, verb: string) => `${who} ${verb} to `)
    .replace(new RegExp(`\\bwhat (I|we) (${MODAL})(want|need|like|love|wish for|look for|hate|miss|care about|value)(?: most)? (?:is|was),? (?:for (it|them|you|him|her|someone) (?=to\\b))?`, 'gi'), (_m, who: string, modal: string, verb: string, object?: string) =>
      `${who} ${modal.replace(/\b(?:really|actually|honestly|just|most|personally)\s+/gi, '')}${verb} ${object ? `${object} ` : ''}`,
    )
    .replace(/\bwhat (I|we) (?:usually |normally |just )?do (?:now |instead |these days |nowadays )?(?:is|was),? (?:(?:I|we) )?/gi, '$1 ');
}

/**
 * Rewordings for a headline only (a claim keeps the participant's own order): "The reason I use it
 * is the council stopped paper" leads with what the participant does and why ("Because the
 * council stopped paper, I use it", then told main clause first); "For me is very difficult to
 * understand which zone" is "I find it very difficult to understand which zone".
 */
const forHeadline = (text: string) =>
  text
    .replace(/\bfor (me|us),? (?:it ?)?(is|was|'s) ((?:very |really |so |quite |a bit |too )?(?:difficult|hard|easy|confusing|simple|impossible|tricky) to)\b/gi, (_m, who: string, verb: string, what: string) =>
      `${who.toLowerCase() === 'me' ? 'I' : 'we'} ${/was/i.test(verb) ? 'found' : 'find'} it ${what}`,
    )
    .replace(/\bthe (?:main |only |real )?reason (?:why |that )?(I|we) ([^,.;?!]{3,60}?) (?:is|was),? (?:that |because |'cause )?([^,;.!?]+)[^.!?]*/gi, (_m, who: string, what: string, why: string) => `because ${why}, ${who} ${what}`)
    .replace(/^because/, 'Because');

/** First-person contractions spelled out, so "I'm" parses as a subject and a verb. */
function expand(quote: string): string {
  const expanded = withApostrophes(chatSpelledOut(quote))
    .replace(/\b(I|we)'m\b/gi, '$1 am')
    .replace(/\b(I|we)'re\b/gi, '$1 are')
    .replace(/\b(I|we)'ve\b/gi, '$1 have')
    .replace(/\b(I|we)'ll\b/gi, '$1 will')
    // "I'd strapped them in" is "I had"; "I'd like" is "I would".
    .replace(/\b(I|we)'d(?=\s+(?:(?:just|already|never|only|really|actually)\s+)?(?:\w+ed|been|gone|done|seen|had|got|gotten|made|taken|given|written|known|thought|told|left|found|bought|brought|kept|lost|paid|put|spent|sent|heard)\b)/gi, '$1 had')
    .replace(/\b(I|we)'d\b/gi, '$1 would')
    // "Just let me type the code by hand" asks for something: "I want to type the code by hand".
    .replace(/^((?:(?:just|please|honestly|so),?\s+)*)let (me|us) (?!(?:see|think|explain|check|say|put it|be honest|remember|tell you|guess|just say|look)\b)(?=[a-z])/i, (_m, _lead: string, who: string) => `${who.toLowerCase() === 'me' ? 'I' : 'we'} want to `);
  return uncleft(plainGrammar(expanded));
}

const TAGS = /^(?:no\.?|yes|yeah|right|honestly|actually|really|though|anyway|basically|obviously)$/i;

/** Verbs whose "me" a headline leaves out: "took me an hour", "cost us a client". */
const DROPS_OBJECT = new Set(['take', 'cost']);
const SCENE_START = /^(?:last|yesterday|today|this|on|at|in|one|every|then|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

/** True when the sentence opens on when it happened ("Last Tuesday …", "At 7:00 …", "Then …") before saying what. */
function setsTheScene(tokens: Token[]): boolean {
  const first = tokens[0];
  // "Two weeks ago …", "A few days ago …": a time said first.
  if (first && tokens.slice(1, 4).some((t) => /^ago$/i.test(t.text)) && /^(?:NUM|DET|ADJ)$/.test(first.pos)) return true;
  if (!first || !SCENE_START.test(first.text)) return false;
  // "this" and "in" also start plain subjects ("This page …", "In the app …"): only with a time word after them.
  if (/^(?:this|in|on|at|one|every)$/i.test(first.text)) return tokens[1]?.pos === 'NUM' || /^(?:morning|afternoon|evening|week|month|year|time|day|night|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d[\d:.]*)$/i.test(tokens[1]?.text ?? '') || /^(?:the)$/i.test(tokens[1]?.text ?? '') && /^(?:morning|day|end|weekend)$/i.test(tokens[2]?.text ?? '');
  return true;
}

/** Verbs of setting out ("I was trying to", "I paid", "I opened it"): what came before the moment. */
const SETTING_OUT = new Set(['try', 'want', 'need', 'go', 'pay', 'book', 'open', 'have', 'spend', 'start', 'click', 'tap', 'log', 'sign', 'order', 'call', 'get', 'come', 'put']);

/** A single mark that opens a quotation ("'No active permit"), not an elision ("'cause"), and one that closes it. */
const OPENING_MARK = /(?<=^|\s)'(?!(?:cause|em|til|round|n)\b)(?=\w)/gi;
const CLOSING_MARK = /(?<=\w)'(?=\s|$|[.,!?])/g;

/**
 * Where a first clause that only sets the scene ("My dad was on ward 7B and …", "I have two kids
 * at the same school and …") gives way to the clause that tells what happened: the index where that
 * clause starts, after its "and"/"but", or -1. A state with a quality ("The floor plan is tiny
 * and …") is the moment itself.
 */
function sceneBefore(tokens: Token[]): number {
  for (let k = 3; k < tokens.length - 2; k++) {
    if (tokens[k].pos !== 'CCONJ' || !/^(?:and|but)$/i.test(tokens[k].text)) continue;
    let j = k + 1;
    while (tokens[j] && tokens[j].pos === 'PUNCT') j++;
    const opensClause = /^(?:PRON|DET|PROPN|NOUN)$/.test(tokens[j]?.pos ?? '') && tokens.slice(j + 1, j + 5).some((t) => t.pos === 'VERB' || t.pos === 'AUX');
    const first = tokens.slice(0, k);
    // "on ward 7B": a word after a preposition is a name the tagger took for a verb.
    const verbs = first.filter((t, i) => (t.pos === 'VERB' || t.pos === 'AUX') && !/^(?:ADP|DET)$/.test(first[i - 1]?.pos ?? ''));
    const state = verbs.length > 0 && verbs.every((t) => /^(?:be|have)$/i.test(t.lemma));
    const quality = first.some((t) => t.pos === 'ADJ' && !/^(?:same|other|first|second|last|next|own)$/i.test(t.text)) || first.some((t) => t.negated || /^(?:n't|not|never|no)$/i.test(t.text));
    return opensClause && state && !quality ? j : -1;
  }
  return -1;
}

/** A first-person clause that only says what the participant set out to do. */
function setsOut(tokens: Token[]): boolean {
  const i = tokens.findIndex((t) => t.pos !== 'PUNCT');
  if (!SPEAKER.has(tokens[i]?.text.toLowerCase() ?? '')) return false;
  const at = tokens.findIndex((t, k) => k > i && t.pos === 'VERB');
  const verb = tokens[at];
  // "I want it to tell me", "I'd want a photo": a wish said now is the moment, not what came before it.
  const wishNow = !!verb && /^(?:want|need)$/i.test(verb.lemma) && (verb.text.toLowerCase() === verb.lemma.toLowerCase() || tokens[at - 1]?.pos === 'AUX');
  return !!verb && !wishNow && SETTING_OUT.has(verb.lemma.toLowerCase()) && !tokens.some((t) => t.negated || /^(?:n't|not|never)$/i.test(t.text));
}

/** Verbs whose object is a question ("figure out if …", "didn't know whether …"): that clause is what they could not tell. */
const KNOWING = /^(?:know|tell|understand|see|check|decide|wonder|ask|remember|figure|work|find|sure|clear|unclear|idea|guess|say)$/i;
/** "if"/"whether" at `i` opens the object of a verb of knowing, not a condition; "while" after "a" is a span of time. */
const complementAt = (tokens: Token[], i: number) =>
  (/^while$/i.test(tokens[i]?.text ?? '') && /^(?:a|the|little)$/i.test(tokens[i - 1]?.text ?? '')) ||
  (/^(?:if|whether)$/i.test(tokens[i]?.text ?? '') && (KNOWING.test(tokens[i - 1]?.lemma ?? '') || (/^(?:out)$/i.test(tokens[i - 1]?.text ?? '') && KNOWING.test(tokens[i - 2]?.lemma ?? '')))) ||
  // "makes me feel like I can't speak", "looked as if it had saved": what it felt or looked like is the content.
  (/^(?:like|as)$/i.test(tokens[i]?.text ?? '') && /^(?:feel|look|seem|sound)$/i.test(tokens[i - 1]?.lemma ?? ''));

/** The conjunction at `i` pairs two things after "between", "either", "both" or "whether" (the first conjunction after it, within eight words). */
function pairedAt(tokens: Token[], i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 8); k--) {
    if (/^(?:between|either|both|whether)$/i.test(tokens[k].text)) return true;
    if (tokens[k].pos === 'CCONJ' || tokens[k].text === ',') return false;
  }
  return false;
}

/** Where the main clause ends: a subordinating conjunction, or "and/but" opening a new clause, or ";" / a dash. */
function mainClauseEnd(tokens: Token[]): number {
  let sawVerb = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.pos === 'VERB' || t.pos === 'AUX') sawVerb = true;
    if (!sawVerb) continue;
    // "What kept me was really that …": the clause after the copula is the content.
    const copula = (k: number) => tokens[k]?.pos === 'AUX' && /^(?:is|was|'s)$/i.test(tokens[k].text);
    if (t.pos === 'SCONJ' && i > 1 && !complementAt(tokens, i) && !(/^that$/i.test(t.text) && (copula(i - 1) || (tokens[i - 1].pos === 'ADV' && copula(i - 2))))) return i;
    if (t.text === ';' || t.text === '—' || t.text === '–') return i;
    // "The export failed again: the file was empty": what comes before the colon, unless it only frames what follows ("My trick is this:").
    if (t.text === ':' && i >= 4 && !/^(?:this|that|thing|is|was|are|problem|issue|trick|reason|answer|point|question|catch)$/i.test(tokens[i - 1].text)) return i;
    const newSubject = tokens[i + 1] && (tokens[i + 1].pos === 'PRON' || tokens[i + 1].pos === 'DET' || tokens[i + 1].pos === 'PROPN');
    const paired = () => pairedAt(tokens, i);
    if (t.pos === 'CCONJ' && newSubject && i > 2 && !paired()) return i;
    if (t.text === ',' && newSubject && tokens[i + 2] && (tokens[i + 2].pos === 'VERB' || tokens[i + 2].pos === 'AUX')) return i;
    if (t.text === ',' && /^(so|then|which)$/i.test(tokens[i + 1]?.text ?? '')) return i;
  }
  return tokens.length;
}

/** A token that ended the participant's own sentence: it cannot dangle ("the week before"). */
type Word = Token & { closes?: true };
const trimEnd = (tokens: Word[]) => {
  const out = [...tokens];
  // "…, but it": a subject left behind by its conjunction dangles too.
  // A hedge left at the end of a cut ("… they are honestly") says nothing either.
  const orphan = () =>
    (out.length > 1 && /^(?:it|this|that)$/i.test(out[out.length - 1].text) && (/^(?:CCONJ|SCONJ)$/.test(out[out.length - 2].pos) || out[out.length - 2].text === ',')) ||
    (out.length > 3 && !out[out.length - 1].closes && /^(?:honestly|really|just|actually|basically|literally|totally|even|when|while|where|because|until|whenever)$/i.test(out[out.length - 1].text) && !/^(?:a|the|little)$/i.test(out[out.length - 2].text));
  // "auto top-up": the end of a hyphenated word is part of it, not a particle left dangling.
  const hyphenated = () => out.length > 2 && out[out.length - 1].space === '' && out[out.length - 2].text === '-';
  while (out.length && !hyphenated() && ((dangling(out[out.length - 1]) && !out[out.length - 1].closes && !particle(out[out.length - 1], out[out.length - 2], out[out.length - 3])) || orphan())) out.pop();
  return out;
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * Shortens to `max` characters: at the last clause or phrase boundary (a conjunction or a
 * comma) that fits, else word by word; never mid-word, never ending on a dangling word.
 */
function fit(tokens: Word[], max: number): Word[] {
  const whole = trimEnd(tokens);
  let out = whole;
  if (join(out).length <= max) return out;
  // "Just wishes it would remind them … runs out": a leading hedge goes before any of what was said.
  if (out.length > 3 && /^(?:just|really|actually|honestly|basically|literally)$/i.test(out[0].text) && join(out.slice(1)).length <= max) return [{ ...out[1], text: capitalise(out[1].text) }, ...out.slice(2)];
  // "this shared Google Sheet where people write …": a relative clause is a boundary too.
  const relative = (b: number) => b > 3 && /^(?:where|which|who)$/i.test(out[b].text) && /^(?:NOUN|PROPN)$/.test(out[b - 1].pos);
  for (let b = out.length - 1; b > 2; b--) {
    if ((out[b].pos !== 'CCONJ' && out[b].pos !== 'SCONJ' && out[b].text !== ',' && out[b].text !== ':' && !relative(b)) || complementAt(out, b)) continue;
    // "…: Valentine's | and Mother's Day": a possessive before the cut has lost what it possesses.
    if (/^['’]s$/i.test(out[b - 1]?.text ?? '')) continue;
    // "so it looked like I'd spent …": "looked" needs what follows.
    if (/^(?:like|as|if|though)$/i.test(out[b].text) && /^(?:look|seem|feel|sound|act)$/i.test(out[b - 1]?.lemma ?? '')) continue;
    // "keep that fifty pence fee": a determiner the tagger took for a conjunction.
    if (/^that$/i.test(out[b].text) && /^(?:NUM|ADJ|NOUN)$/.test(out[b + 1]?.pos ?? '')) continue;
    // "between the kitchen and the bedroom", "either the motorboat or the sailboat": one phrase.
    if (out[b].pos === 'CCONJ' && pairedAt(out, b)) continue;
    const cut = trimEnd(out.slice(0, b));
    // A boundary that leaves a verb and a pronoun ("Did that", "If they keep") says less than the words up to the limit.
    const words = cut.filter((t) => t.pos !== 'PUNCT').length;
    const vague = (words < 3 && cut[cut.length - 1]?.pos === 'PRON') || (words < 4 && LEADING_SUBORDINATE.has(cut[0]?.text.toLowerCase() ?? ''));
    if (join(cut).length <= max && !vague) return cut;
  }
  while (out.length > 2 && join(out).length > max) out = trimEnd(out.slice(0, -1));
  // Cut word by word, a verb or a preposition's object is not left behind ("or just buy", "without giving him"):
  // back to the phrase before it.
  const midPhrase = () => {
    const last = out[out.length - 1];
    const next = whole[out.length];
    if (!last || !next) return false;
    // "… with their own | templates": a noun phrase cut before its noun.
    if (/^(?:NOUN|PROPN|ADJ|NUM)$/.test(next.pos) && (/^(?:ADJ|NUM)$/.test(last.pos) || /^(?:my|our|your|their|his|her|its|own)$/i.test(last.text))) return true;
    // "… than it | has places": a subject cut from its verb.
    if (last.pos === 'PRON' && /^(?:VERB|AUX)$/.test(next.pos) && SUBJECTS_CUT.test(last.text)) return true;
    return /^(?:DET|NOUN|ADJ|NUM|PROPN|PRON)$/.test(next.pos) && (last.pos === 'VERB' || (last.pos === 'PRON' && out[out.length - 2]?.pos === 'VERB'));
  };
  if (midPhrase()) {
    let k = out.length;
    // "keep that fifty pence fee": a determiner the tagger took for a conjunction opens no phrase.
    const opens = (t: Word, next?: Word) => /^(?:ADP|SCONJ|CCONJ)$/.test(t.pos) && !(/^that$/i.test(t.text) && /^(?:NUM|ADJ|NOUN)$/.test(next?.pos ?? ''));
    while (k > 3 && !opens(whole[k - 1], whole[k])) k--;
    // Up to the word that opens the phrase; a particle before it stays ("let their brother in").
    const cut = whole.slice(0, k - 1);
    while (cut.length && /^(?:DET|CCONJ|SCONJ|PUNCT)$/.test(cut[cut.length - 1].pos)) cut.pop();
    if (wordCount(cut) >= 3) out = cut;
  }
  return out;
}

const SUBJECTS_CUT = /^(?:it|they|he|she|we|i|you|there)$/i;
/** The words that number the items of a list ("First, …", "Second, …"). */
export const ORDINAL_WORDS = String.raw`first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth(?:ly)?|lastly|finally`;

/** "use" → "uses", "try" → "tries", "fix" → "fixes": a base-form verb after "the participant". */
/** Verbs whose past is their base form: "I put the wrong date" is told in the past, and stays "Put the wrong date". */
const SAME_IN_PAST = new Set(['put', 'set', 'cut', 'hit', 'let', 'read', 'quit', 'shut', 'spread', 'cost', 'hurt', 'upset']);

/** A later verb is in the past ("booked", "was"), and none in the present ("don't", "look"). */
function toldInPast(tokens: Token[]): boolean {
  const verbs = tokens.filter((t) => t.pos === 'VERB' || t.pos === 'AUX');
  const past = verbs.some((t) => t.text.toLowerCase() !== t.lemma.toLowerCase() && !/(?:ing|s)$/i.test(t.text) && !/^(?:is|are|am|'m|'re|'s)$/i.test(t.text));
  const present = verbs.some((t) => /^(?:do|does|is|are|am|'m|'re|have|has)$/i.test(t.text) || (t.pos === 'VERB' && t.text.toLowerCase() === t.lemma.toLowerCase() && !SAME_IN_PAST.has(t.text.toLowerCase())));
  return past || !present;
}

function thirdPerson(verb: string): string {
  const v = verb.toLowerCase();
  if (AGREE[v]) return AGREE[v];
  if (/[^aeiou]y$/.test(v)) return `${verb.slice(0, -1)}ies`;
  if (/(s|sh|ch|x|z|o)$/.test(v)) return `${verb}es`;
  return `${verb}s`;
}

/**
 * The verb after a first-person subject at `subject`, agreed with "the participant": the
 * index of the last token it covers and its new spelling, or null when it needs no change
 * ("couldn't", "would", past tenses).
 */
function agreement(tokens: Token[], subject: number): { adverbs: Token[]; verb: string; last: number } | null {
  let j = subject + 1;
  // "I currently keep", "we normally do": an adverb between the subject and its verb.
  while (tokens[j] && tokens[j].pos === 'ADV' && (LEADING_ADVERBS.has(tokens[j].text.toLowerCase()) || /^(?:\w+ly|now)$/i.test(tokens[j].text))) j++;
  const verb = tokens[j];
  if (!verb) return null;
  const v = verb.text.toLowerCase();
  // "we text Maria", "I email them": the small model tags some verbs after a subject as nouns; an object after one shows it is a verb.
  const verbLike = verb.pos === 'VERB' || (verb.pos === 'NOUN' && /^(?:PROPN|DET|PRON|NUM)$/.test(tokens[j + 1]?.pos ?? '') && !/s$/i.test(v));
  const base = (verbLike && verb.lemma.toLowerCase() === v) || AGREE[v] !== undefined;
  // "do n't" becomes "does n't"; other negated auxiliaries ("could n't") need nothing.
  if (!base || (tokens[j + 1]?.text === "n't" && v !== 'do')) return null;
  // "I put the wrong date, I booked Tuesday": a verb whose past is its base form follows the sentence's other verbs.
  if (SAME_IN_PAST.has(v) && toldInPast(tokens.slice(j + 1))) return null;
  return { adverbs: tokens.slice(subject + 1, j).filter((t) => !HEDGES.test(t.text)), verb: thirdPerson(verb.text), last: j };
}

/** The token at `i` follows "and", "and then" or "and just". */
const afterAnd = (tokens: Token[], i: number) => {
  let j = i - 1;
  while (j > 0 && /^(?:then|just|also|always|usually|often|sometimes|simply|only|still)$/i.test(tokens[j].text)) j--;
  return tokens[j]?.pos === 'CCONJ';
};

/**
 * A second verb sharing the agreed subject agrees too: "I print the rota and pin it" →
 * "Prints the rota and pins it". Only a plain verb right after "and"/"or", and not after a
 * "to" (in "try to fix it and give up" the second verb may belong to "to").
 */
function coordinated(tokens: Token[], verb: Token): Token[] {
  if (verb.pos !== 'VERB') return tokens;
  // "and then I ring them": the repeated subject goes, so its verb agrees like the first.
  const rest = tokens.filter((t, i) => !(SPEAKER.has(t.text.toLowerCase()) && t.pos === 'PRON' && afterAnd(tokens, i) && tokens[i + 1]?.pos === 'VERB'));
  const to = rest.findIndex((t) => t.text.toLowerCase() === 'to');
  return rest.map((t, i) => {
    const before = rest[i - 1];
    // The small model tags some such verbs as nouns ("and pin it"): an object pronoun after one shows it is a verb.
    // "and don't look at it": the auxiliary of a negated second verb agrees too.
    const verbLike = t.pos === 'VERB' || (t.pos === 'NOUN' && /^(?:it|them|that|this)$/i.test(rest[i + 1]?.text ?? '')) || (/^do$/i.test(t.text) && rest[i + 1]?.text === "n't");
    const shares = before && afterAnd(rest, i) && (to < 0 || i < to) && verbLike && t.lemma.toLowerCase() === t.text.toLowerCase();
    return shares ? { ...t, text: thirdPerson(t.text) } : t;
  });
}

/**
 * A researcher's headline for a quote: the main clause without fillers, its first-person
 * subject and "me", in the third person and at most 70 characters ("Couldn't find the export
 * button anywhere"). A main clause too thin to say anything keeps its subordinate clause.
 * Null when the sentence has no clause to build one from.
 */
export function headlineOf(quote: string, type?: string): string | null {
  return describe(quote, type).headline;
}

const ORDINALS = /^(?:first|second|third|firstly|secondly|finally|lastly|plus)$/i;

/**
 * Where a verbless opening phrase ends ("For the loose stuff,", "First,", "On the second
 * day,") when a clause with its own subject follows it; 0 when there is none.
 */
function openingPhrase(tokens: Token[]): number {
  const comma = tokens.findIndex((t) => t.text === ',');
  if (comma < 1 || comma > 6 || !(/^(?:ADP|ADV)$/.test(tokens[0].pos) || ORDINALS.test(tokens[0].text))) return 0;
  if (tokens.slice(0, comma).some((t) => t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'SCONJ')) return 0;
  const subject = tokens[comma + 1];
  const verb = tokens.slice(comma + 2, comma + 4).some((t) => t.pos === 'VERB' || t.pos === 'AUX');
  return subject && /^(?:PRON|DET|PROPN|NOUN)$/.test(subject.pos) && verb ? comma + 1 : 0;
}

/** Asides at the end that say how, not what: "…, I can tell you", "…, I think", "…, to be honest". */
const TAIL_ASIDE = /^(?:they (?:really |truly |honestly )?(?:can tell you|must say|have to say|think|guess|suppose|reckon|would say|were|are|did)|you see|to be (?:honest|fair)|if they are honest|in fairness|(?:do|does|did|is|was|are|were|can|could|would|will|have|has|had)(?:n't| not)? (?:they|it|you|we|he|she|there))$/i;

/** Inside double quotation marks: the words of a message or of someone the participant quotes. */
function quoted(tokens: Token[], i: number): boolean {
  let inside = false;
  for (let k = 0; k < i; k++) {
    const mark = tokens[k].text;
    if (mark === '"') inside = !inside;
    else if (mark === '“') inside = true;
    else if (mark === '”') inside = false;
  }
  return inside;
}

/** In the participant's voice turned to the third person: agreement, "me" and "my", tags and asides at the end. */
function thirdPersonOf(tokens: Word[], keepSubject = false): Word[] {
  // "I and my wife use it": the subject is both of them, and stays.
  const together = /^and$/i.test(tokens[1]?.text ?? '');
  if (!keepSubject && !together && tokens.length > 1 && SPEAKER.has(tokens[0].text.toLowerCase()) && tokens[0].pos === 'PRON') {
    const agreed = agreement(tokens, 0);
    tokens = agreed ? [...agreed.adverbs, { ...tokens[agreed.last], text: agreed.verb }, ...coordinated(tokens.slice(agreed.last + 1), tokens[agreed.last])] : tokens.slice(1);
  }
  // "It took me an hour" → "It took an hour"; elsewhere "me" is "them" ("for the life of them").
  tokens = tokens.filter((t, i) => !(i > 0 && OBJECT.has(t.text.toLowerCase()) && t.pos === 'PRON' && DROPS_OBJECT.has(tokens[i - 1].lemma.toLowerCase()) && !quoted(tokens, i)));
  if (tokens.length && POSSESSIVE[tokens[0].text.toLowerCase()]) tokens = tokens.slice(1);
  // Later first-person words, in the third person too.
  tokens = tokens.map((t, i) => {
    const w = t.text.toLowerCase();
    if (inCompound(tokens, i) || quoted(tokens, i)) return t;
    const third = SPEAKER.has(w) && t.pos === 'PRON' ? 'they' : OBJECT.has(w) && t.pos === 'PRON' ? 'them' : POSSESSIVE[w] ?? REFLEXIVE[w];
    if (third) return { ...t, text: third };
    const verb = AGREE_THEY[w] && afterI(tokens, i) ? AGREE_THEY[w] : undefined;
    return verb ? { ...t, text: verb } : t;
  });
  // A tag after a comma says nothing about the moment: "…, no.", "…, honestly".
  let n = tokens.length;
  while (n > 3 && (/^[.!?]$/.test(tokens[n - 1].text) || (TAGS.test(tokens[n - 1].text) && tokens[n - 2].text === ','))) n -= /^[.!?]$/.test(tokens[n - 1].text) ? 1 : 2;
  tokens = tokens.slice(0, n);
  const aside = tokens.findLastIndex((t) => t.text === ',');
  if (aside >= 2 && TAIL_ASIDE.test(join(tokens.slice(aside + 1)))) {
    tokens = tokens.slice(0, aside);
    tokens[aside - 1] = { ...tokens[aside - 1], closes: true };
  }
  return tokens;
}

const wordCount = (tokens: Token[]) => tokens.filter((t) => t.pos !== 'PUNCT').length;

/**
 * "If they raise the fee, I'm going back to paper" opens on its condition; where the main clause
 * starts (after a comma, "then", or a first-person subject with its verb), or -1.
 */
function mainAfterLeading(all: Word[]): number {
  // "…, I'll be honest, I was terrified": the aside is not the main clause.
  const aside = (k: number) => SPEAKER.has(all[k]?.text.toLowerCase() ?? '') && /^(?:(?:will|would|must|have to|got to) )?(?:be honest|tell you|say|admit|guess|think|mean)\b/i.test(join(all.slice(k + 1, k + 4)));
  const clause = (k: number) => /^(?:PRON|DET|PROPN|NOUN)$/.test(all[k]?.pos ?? '') && all.slice(k + 1, k + 4).some((t) => t.pos === 'VERB' || t.pos === 'AUX');
  // "the last address I used.", "the driver I booked cancels": a clause about the noun before it, not the main one.
  const relative = (k: number) => all[k - 1].pos === 'NOUN' && all[k + 1].pos === 'VERB' && (!all[k + 2] || all[k + 2].pos === 'PUNCT' || /^(?:AUX|VERB)$/.test(all[k + 2].pos));
  for (let i = 2; i < all.length - 1; i++) {
    // A quoted message is not where the participant's own clause starts.
    if (quoted(all, i)) continue;
    if (all[i].text === ',') {
      const k = /^then$/i.test(all[i + 1].text) ? i + 2 : i + 1;
      if ((clause(k) || /^(?:AUX|VERB)$/.test(all[k]?.pos ?? '')) && !aside(k)) return k;
    }
    // Spoken and unpunctuated: "If they keep that fee I'm going to pay cash".
    const opensClause = all[i - 1].pos === 'SCONJ' || /^(?:when|where|while|that|because|if|before|after|until|once|so)$/i.test(all[i - 1].text);
    if (SPEAKER.has(all[i].text.toLowerCase()) && all[i].pos === 'PRON' && /^(?:AUX|VERB)$/.test(all[i + 1].pos) && !opensClause && !aside(i) && !relative(i)) return i;
  }
  return -1;
}

/**
 * A headline from a sentence that opens on its condition or cause: what happens comes first and
 * keeps its condition ("Is going back to paper if they raise the fee"), unless it is too thin to
 * lead ("they are gone"). The condition is shortened before the main clause is given up.
 */
function conditional(sub: Word[], main: Word[]): Word[] {
  const agreed = thirdPersonOf(main);
  const thin = wordCount(agreed) < 3;
  const lead = thin ? thirdPersonOf(main, true) : agreed;
  const after = (tokens: Word[]) =>
    tokens[0] ? [{ ...tokens[0], space: ' ', text: tokens[0].pos !== 'PROPN' && tokens[0].text !== 'I' ? lowerFirst(tokens[0].text) : tokens[0].text }, ...tokens.slice(1)] : tokens;
  const compose = (s: Word[]) => (thin ? [...s, { ...s[0], text: ',', pos: 'PUNCT', space: '' }, ...after(lead)] : [...lead, ...after(s)]);
  const whole = compose(trimEnd(sub));
  if (join(whole).length <= HEADLINE_MAX) return whole;
  const shortened = fit(sub, HEADLINE_MAX - join(lead).length - (thin ? 2 : 1));
  // Only a cut at a clause or phrase boundary keeps the condition readable ("if they keep that fifty" does not).
  const next = sub[shortened.length];
  const atBoundary = !next || /^(?:CCONJ|SCONJ|ADP)$/.test(next.pos) || /^(?:,|when|where|while|whenever)$/i.test(next.text);
  const vague = wordCount(shortened) < 3 || shortened[shortened.length - 1]?.pos === 'PRON' || !atBoundary;
  if (!vague) return compose(shortened);
  return thin ? fit(sub, HEADLINE_MAX) : fit(lead, HEADLINE_MAX);
}

function headlineFrom(sentence: Sentence): string | null {
  const words: Word[] = [...sentence.tokens];
  const lastWord = words.findLastIndex((t) => t.pos !== 'PUNCT');
  if (lastWord >= 0) words[lastWord] = { ...words[lastWord], closes: true };
  const cleaned = contentOf(words, 'drop');
  const all = setsTheScene(cleaned) ? cleaned : cleaned.slice(openingPhrase(cleaned));
  const end = mainClauseEnd(all);
  let tokens = all.slice(0, end);
  let fitted: Word[] | null = null;
  const scene = sceneBefore(all);
  if (all[0] && LEADING_SUBORDINATE.has(all[0].text.toLowerCase())) {
    const at = mainAfterLeading(all);
    const rest = at > 0 ? contentOf(all.slice(at), 'drop') : [];
    const main = rest.slice(0, mainClauseEnd(rest));
    // The condition ends before the comma, or the "then", that opens the main clause.
    let subEnd = at;
    while (subEnd > 1 && (all[subEnd - 1].text === ',' || /^then$/i.test(all[subEnd - 1].text))) subEnd--;
    // "If X, I am gone": the main clause follows the subordinate one, and the headline needs both.
    if (wordCount(main) >= 2) fitted = conditional(thirdPersonOf(all.slice(0, subEnd)), main);
    // "Because I don't have to think about dinner." answers a "why": the reason is the moment.
    else if (/^(?:because|cause|'cause|cos)$/i.test(all[0].text) && wordCount(all) > 3) tokens = all.slice(1, 1 + mainClauseEnd(all.slice(1)));
    else tokens = all;
  }
  // "My dad was on ward 7B and the app wanted his hospital number": where they were, then what happened.
  else if (scene > 0 && wordCount(all.slice(scene)) >= 3) {
    const next = contentOf(all.slice(scene), 'drop');
    fitted = fit(thirdPersonOf(next.slice(0, mainClauseEnd(next))), HEADLINE_MAX);
  }
  // "Last Tuesday I had to pay, and the button stayed grey": the scene is set first, the moment follows.
  else if (setsTheScene(all) && all[end] && (all[end].text === ',' || all[end].pos === 'CCONJ')) {
    const next = contentOf(all.slice(end + 1), 'drop');
    const moment = next.slice(0, mainClauseEnd(next));
    if (moment.filter((t) => t.pos !== 'PUNCT').length >= 3) tokens = moment;
  }
  // "I was trying to add my car, and the add vehicle option is buried": what the participant set
  // out to do comes first, what happened to it after; the headline is what happened.
  else if (setsOut(tokens) && all[end] && (all[end].text === ',' || all[end].pos === 'CCONJ')) {
    const next = contentOf(all.slice(end + 1), 'drop');
    const moment = next.slice(0, mainClauseEnd(next));
    if (moment.filter((t) => t.pos !== 'PUNCT').length >= 3 && !SPEAKER.has(moment[0]?.text.toLowerCase() ?? '')) tokens = moment;
  }
  if (!fitted) {
    const said = tokens.filter((t) => t.pos !== 'PUNCT' && !(SPEAKER.has(t.text.toLowerCase()) && t.pos === 'PRON'));
    // Too thin to stand alone, except a short state ("Was so embarrassed").
    if (said.length < 3 || (said.length < 4 && said[said.length - 1].pos !== 'ADJ')) tokens = all;
    fitted = fit(thirdPersonOf(tokens), HEADLINE_MAX);
  }
  if (wordCount(fitted) < 2) return null;
  // No headline opens on the comma an opener left behind ("Just, the thing with Noah").
  let text = capitalise(join(fitted).replace(/^[\s,;:.—–-]+/, '')).replace(/(?<!\.\w)\.$/, '').replace(/\s*[,;:]+$/, '');
  if ((text.match(/"/g) ?? []).length % 2) {
    // A quotation the headline ends with keeps its closing mark ('it said "Payment failed, please try again."').
    const last = /([\p{L}\p{N}']+)[^\p{L}\p{N}']*$/u.exec(text)?.[1];
    const closes = last && new RegExp(`(?:^|[^\\p{L}\\p{N}'])${escapeRegExp(last)}[.!?,]?["”]`, 'u').test(sentence.text);
    // A cut inside a quotation leaves its opening mark alone: drop it.
    text = closes ? `${text}"` : text.replace(/"(?=[^"]*$)/, '').replace(/\s+/g, ' ').trim();
  }
  // The same for single marks that open a quotation ("says 'No active permit"), not apostrophes.
  const opening = [...text.matchAll(OPENING_MARK)];
  if (opening.length > (text.match(CLOSING_MARK) ?? []).length) {
    const at = opening[opening.length - 1].index;
    text = text.slice(0, at) + text.slice(at + 1);
  }
  // The tagger does not know a spoken "'cause" for the conjunction it is.
  text = text.replace(/,?\s+(?:'cause|cause|cos|coz)$/i, '');
  return text.length <= HEADLINE_MAX ? text : null;
}

/** What a recovery ends in: it worked, went through, was put right or given back. */
const RESOLVED = /\b(?:work(?:ed|s|ing)?|went through|go through|came through|fix(?:ed|es)?|sort(?:ed|s)|restor(?:ed|es)|refund(?:ed|s)?|credit(?:ed|s)|back|resolv(?:ed|es)|solv(?:ed|es)|recover(?:ed|s)|reset|chang(?:ed|es) it|found (?:it|them)|managed|came up|showed up|reappeared|(?:was|were) (?:all )?(?:still )?there|fine|ok|okay)\b/i;

/**
 * Where each clause of a spoken sentence starts: after "and", "but", "so" or a comma, where a
 * subject with its verb follows, or a verb told in the past with its subject left out ("and restarted it").
 */
function clauseStarts(tokens: Word[]): number[] {
  const starts = [0];
  for (let i = 1; i < tokens.length - 1; i++) {
    const t = tokens[i];
    if (t.pos !== 'CCONJ' && t.text !== ',' && !/^(?:so|then)$/i.test(t.text)) continue;
    if (pairedAt(tokens, i)) continue;
    let k = i + 1;
    // "and next day the money is back": a time said first is part of the clause it opens.
    while (tokens[k] && (tokens[k].pos === 'CCONJ' || tokens[k].text === ',' || /^(?:so|then|also|eventually|finally|later|next|day|morning|afternoon|week)$/i.test(tokens[k].text) || (/^the$/i.test(tokens[k].text) && /^next$/i.test(tokens[k + 1]?.text ?? '')))) k++;
    const next = tokens[k];
    if (!next || k - (starts[starts.length - 1] ?? 0) < 3) continue;
    // "the nurse on the ward changed it": a subject's phrase may run a few words before its verb.
    const verbAt = tokens.slice(k + 1, k + (next.pos === 'PRON' ? 4 : 7)).findIndex((w) => w.pos === 'VERB' || w.pos === 'AUX');
    const subject = /^(?:PRON|DET|PROPN|NOUN)$/.test(next.pos) && verbAt >= 0 && !tokens.slice(k + 1, k + 1 + verbAt).some((w) => w.pos === 'CCONJ' || w.pos === 'SCONJ' || w.text === ',');
    const clipped = next.pos === 'VERB' && next.text.toLowerCase() !== next.lemma.toLowerCase() && !/ing$/i.test(next.text);
    if (subject || clipped) {
      starts.push(k);
      i = k;
    }
  }
  return starts;
}

/**
 * A recovery is a problem and how it was put right: "Walker didn't show up one Monday; they
 * refunded the fee", not the problem alone. Null when the sentence has no later clause that
 * resolves it (the ordinary headline then serves).
 */
function recoveryFrom(sentence: Sentence): string | null {
  const all: Word[] = contentOf([...sentence.tokens], 'drop');
  if (!all.length || LEADING_SUBORDINATE.has(all[0].text.toLowerCase())) return null;
  const starts = clauseStarts(all);
  const clause = (c: number) => trimEnd(all.slice(starts[c], starts[c + 1] ?? all.length).filter((t, i, a) => !(i === a.length - 1 && (t.pos === 'CCONJ' || t.text === ',' || t.pos === 'PUNCT'))));
  let fix = -1;
  for (let c = starts.length - 1; c > 0 && fix < 0; c--) if (RESOLVED.test(join(clause(c)))) fix = c;
  if (fix < 0) return null;
  // "I updated the card and it went through": what "it" did needs what they did first ("but it was still there" does not).
  const opens = all[starts[fix]];
  const from = fix > 1 && /^(?:it|that|this)$/i.test(opens.text) && /^and$/i.test(all[starts[fix] - (/^then$/i.test(all[starts[fix] - 1]?.text ?? '') ? 2 : 1)]?.text ?? '') ? fix - 1 : fix;
  let recovery: Word[] = trimEnd(all.slice(starts[from], starts[fix + 1] ?? all.length)).filter((t, i, a) => !(i === a.length - 1 && t.pos === 'PUNCT'));
  // "they'd found someone else and refunded the fee": a verb without its subject gets it back, unless the participant did it.
  if (opens.pos === 'VERB') {
    const subject = all.slice(0, starts[fix]).findLast((t, j) => /^(?:PRON|PROPN|NOUN)$/.test(t.pos) && /^(?:AUX|VERB)$/.test(all[j + 1]?.pos ?? '') && !OBJECT.has(t.text.toLowerCase()));
    if (subject && !SPEAKER.has(subject.text.toLowerCase())) recovery = [subject, ...recovery];
  }
  const problem = clause(0);
  const told = thirdPersonOf(recovery);
  const what = thirdPersonOf(problem.slice(0, mainClauseEnd(problem)));
  // Both whole when they fit; else the recovery keeps at least 24 characters and the problem at least 34.
  const room = HEADLINE_MAX - 2;
  const fixed = fit(told, Math.max(24, Math.min(join(told).length, room - Math.min(join(what).length, 34))));
  const lead = fit(what, room - join(fixed).length);
  if (wordCount(lead) < 2 || wordCount(fixed) < 2) return null;
  const second = fixed[0].pos === 'PROPN' || fixed[0].text === 'I' ? join(fixed) : lowerFirst(join(fixed));
  const text = `${capitalise(join(lead))}; ${second}`.replace(/(?<!\.\w)\.$/, '');
  return text.length <= HEADLINE_MAX ? text : null;
}

/**
 * One full sentence saying what happened and to whom, in the third person: "I couldn't find
 * the export button" → "The participant couldn't find the export button."; a sentence about
 * something else is reported: "The participant said the confirm button was greyed out and nobody told them why."
 */
export function claimOf(quote: string): string | null {
  return describe(quote).claim;
}

/** Headline and claim of a quote from one parse (the extractor needs both for every card). */
export function describe(quote: string, type?: string, named?: string, names?: ReadonlySet<string>): { headline: string | null; claim: string | null } {
  // "Show me the rejected lines.", "And don't log me out…": asked of the team, headed as what they want
  // ("Wants to see the rejected lines"; "Show them…" would read as someone else), claimed as asked.
  const said = withoutStageDirections(quote).trim();
  const requested = asRequested(said);
  // "Don't log me out…" is claimed as asked, with its "not" ("…asked the team not to log them out…").
  const refused = DONT_REQUEST.exec(said);
  const asked = refused ? described(`Please ${refused[1]} ${refused[2]}${refused[3]}`, type, named, names).claim : null;
  const told = described(quote, type, named, names);
  if (!requested) return told;
  return { headline: described(requested, type, named, names).headline ?? told.headline, claim: asked?.replace(/^The participant asked the team to /, 'The participant asked the team not to ') ?? told.claim };
}

function described(quote: string, type?: string, named?: string, names?: ReadonlySet<string>): { headline: string | null; claim: string | null } {
  const said = withoutStageDirections(quote);
  const feeling = FEELING_ALONE.exec(said.trim())?.[1].toLowerCase();
  if (feeling) return { headline: `Felt ${feeling}`, claim: `The participant felt ${feeling}.` };
  // "Just that the busy weeks matter most to me": what follows "just that" is what was said.
  // "First, a weekly summary…": the item, not its number.
  const text = welcomeIf(expand(named ? callsIt(said, named) : said))
    .replace(new RegExp(`^(?:(?:just|only|mainly|mostly|simply|basically),?\\s+that|(?:${ORDINAL_WORDS}),)\\s+(\\w)`, 'i'), (_, c: string) => c.toUpperCase());
  const [sentence] = parse(text);
  if (!sentence) return { headline: null, claim: null };
  // "Always keep a screenshot of the QR now.": a habit with its "I" left out, not advice.
  const lead = sentence.tokens[0];
  const verb = sentence.tokens.slice(1).find((t) => t.pos !== 'ADV');
  if (HABIT.test(lead.text) && verb?.pos === 'VERB' && verb.text.toLowerCase() === verb.lemma.toLowerCase() && type !== 'desired_outcome' && !/\b(?:me|us|please)\b/i.test(text)) return describe(`I ${lowerFirst(text)}`, type, undefined, names);
  const wish = bareWish(text, sentence);
  if (wish) return describe(wish, type, undefined, names);
  const wanted = type === 'desired_outcome' ? asWanted(text, sentence) : null;
  if (wanted) return describe(wanted, type, undefined, names);
  const reordered = forHeadline(text);
  const [told] = reordered === text ? [sentence] : parse(reordered);
  const headline = headlineFrom(told ?? sentence);
  // A recovery whose headline states only the problem gets the fix said after it.
  const recovery = type === 'recovery_success' && !(headline && RESOLVED.test(headline)) ? recoveryFrom(sentence) : null;
  return { headline: recovery ?? headline, claim: claimFrom(sentence, names) };
}

/**
 * A wish said without saying who wants it: "Dark mode." or "Faster loading, mostly." is "I want
 * dark mode", "Save my card details." is "I want to save my card details". A request of the team
 * ("Show me the slots, please") is left to be reported as one.
 */
function asWanted(text: string, sentence: Sentence): string | null {
  const words = contentOf(sentence.tokens, 'drop').filter((t) => t.pos !== 'PUNCT');
  const first = words[0];
  if (!first || /\bplease\b/i.test(text) || words.some((t) => OBJECT.has(t.text.toLowerCase()) && t.pos === 'PRON')) return null;
  const lead = /^(?:(?:just|so|well|oh|honestly|yeah|maybe|probably),?\s+)*/i;
  const bare = text.replace(lead, '');
  if (first.pos === 'VERB' && first.text.toLowerCase() === first.lemma.toLowerCase() && !words.some((t) => t.pos === 'PRON' && SPEAKER.has(t.text.toLowerCase()))) {
    // "Pay button up front": a verb's look-alike before a noun names a thing.
    if (words[1]?.pos === 'NOUN' && words.length <= 6) return `I want ${lowerFirst(bare.replace(/[.!]+$/, ''))}.`;
    return `I want to ${lowerFirst(bare)}`;
  }
  const thing = namedThing(text);
  return thing ? `I want ${thing}.` : null;
}

/** "If I could filter by date." said on its own, with nothing following from it, is a wish: "I wish I could filter by date." */
function bareWish(text: string, sentence: Sentence): string | null {
  const opening = /^(?:(?:oh|well|so|and|just|honestly|like|yeah|but),?\s+)*if (?:only )?(?=\w)/i.exec(text);
  if (!opening) return null;
  const words = contentOf(sentence.tokens, 'drop');
  const all = words.slice(openingPhrase(words));
  const main = mainAfterLeading(all);
  // "…, that would be great": the main clause only says the condition is wanted.
  const welcome = main > 0 && WELCOME.test(join(all.slice(main)));
  if (!/^if$/i.test(all[0]?.text ?? '') || (main >= 0 && !welcome) || all.some((t, i) => i > 0 && i < main - 1 && t.text === ',')) return null;
  // Only what is not so: "If it showed the total", "If I could", not "If the page loads".
  const verb = all.slice(1, 6).find((t) => t.pos === 'AUX' || t.pos === 'VERB');
  if (!verb || !(/^(?:could|would|had|were|was|did)$/i.test(verb.text) || (verb.pos === 'VERB' && /ed$/i.test(verb.text)))) return null;
  const condition = welcome ? text.slice(opening[0].length).replace(/,?\s*(?:then\s+)?(?:that|it)(?:'d| would)\b.*$/i, '.') : text.slice(opening[0].length);
  return `I wish ${condition}`;
}

const WELCOME = /^(?:then\s+)?(?:that|it)\s*(?:'d|would)\s+(?:be|make)\s+(?:(?:so|really|just|honestly|such|a|an)\s+)*(?:great|nice|amazing|ideal|awesome|perfect|lovely|helpful|brilliant|fantastic|wonderful|huge|good|better|easier|game[- ]?changer|lifesaver|life saver|my day|life easier|things easier|everything easier)\b/i;

/** A word joined to another by a hyphen ("a remember-me box", "my-account page"): part of a name, said as it is. */
const inCompound = (tokens: Token[], i: number) => (i > 0 && tokens[i].space === '' && tokens[i - 1].text === '-') || (tokens[i + 1]?.text === '-' && tokens[i + 1].space === '');

/** Longest claim before its later clauses are left to the quote: one sentence a reader takes in at once. */
const CLAIM_MAX = 160;

/**
 * The names an interview uses: words written with a capital where no sentence starts ("we went
 * with Evergreen", "and Phil said"), so "Evergreen was the one…" keeps its capital in a claim.
 */
export function namesIn(texts: string[]): Set<string> {
  const names = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(/(?<=[a-z0-9,;]["”’']?\s+)([A-Z][a-z]+(?:[A-Z][a-z]+)*)\b/g)) names.add(m[1]);
  return names;
}

/** The first word is a name, not a capital that only starts the sentence: the tagger still says so once it is lower case. */
function isName(lead: Token, sentence: string, names?: ReadonlySet<string>): boolean {
  if (/^[A-Z][a-z]*[A-Z]/.test(lead.text) || lead.text === 'I' || names?.has(lead.text)) return true;
  // "Saturdays are the only time…": days and months keep their capital.
  if (/^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$|^(?:january|february|march|april|june|july|august|september|october|november|december)$/i.test(lead.text)) return true;
  if (lead.pos !== 'PROPN') return false;
  const at = sentence.indexOf(lead.text);
  return at >= 0 && parse(sentence.slice(0, at) + lowerFirst(sentence.slice(at)))[0]?.tokens.find((t) => t.text.toLowerCase() === lead.text.toLowerCase())?.pos === 'PROPN';
}

function claimFrom(sentence: Sentence, names?: ReadonlySet<string>): string | null {
  let tokens: Word[] = contentOf(sentence.tokens);
  if (join(tokens).length > CLAIM_MAX) tokens = fit(tokens, CLAIM_MAX);
  // Closing quotation marks stay: the claim quotes what the participant quoted.
  while (tokens.length && tokens[tokens.length - 1].pos === 'PUNCT' && !/^["”’']$/.test(tokens[tokens.length - 1].text)) tokens.pop();
  if (tokens.filter((t) => t.pos !== 'PUNCT').length < 3) return null;
  const opening = SPEAKER.has(tokens[0].text.toLowerCase()) && tokens[0].pos === 'PRON' ? agreement(tokens, 0) : null;
  if (opening) tokens.splice(opening.last + 1, Infinity, ...coordinated(tokens.slice(opening.last + 1), tokens[opening.last]));
  const words: string[] = [];
  let firstPerson = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const w = t.text.toLowerCase();
    const space = i === 0 ? '' : t.space;
    // What the participant quotes (a message, someone's words) keeps its own person: "hey I sent you a swap".
    if (i > 0 && quoted(tokens, i)) {
      words.push(space + t.text);
      continue;
    }
    if (SPEAKER.has(w) && t.pos === 'PRON') {
      if (i === 0) firstPerson = true;
      words.push(space + (i === 0 ? 'The participant' : 'they'));
      const agreed = i === 0 ? opening : null;
      if (agreed) {
        for (const adverb of agreed.adverbs) words.push(adverb.space + adverb.text);
        words.push(tokens[agreed.last].space + agreed.verb);
        i = agreed.last;
      }
      continue;
    }
    if (AGREE_THEY[w] && i > 1 && afterI(tokens, i)) words.push(space + AGREE_THEY[w]);
    else if (inCompound(tokens, i)) words.push(space + t.text);
    else if (OBJECT.has(w) && t.pos === 'PRON') words.push(`${space}them`);
    else if (POSSESSIVE[w]) words.push(space + POSSESSIVE[w]);
    else if (REFLEXIVE[w]) words.push(space + REFLEXIVE[w]);
    else words.push(space + t.text);
  }
  // The tagger sometimes keeps the full stop on the last word ("in."): one full stop ends the claim.
  let text = words.join('').replace(/\s+/g, ' ').trim().replace(/[.!?]+$/, '');
  const lead = tokens[0];
  // A clipped sentence has its speaker as subject ("Deleted it, reinstalled it"), or "it" ("Took me a while").
  const clipped =
    !firstPerson && lead.pos === 'VERB' && lead.text.toLowerCase() !== lead.lemma.toLowerCase() && !/ing$/i.test(lead.text) && !/^(?:AUX|VERB)$/.test(tokens[1]?.pos ?? '');
  const itSubject = /^(?:take|cost|be|make|get|seem|look|sound|happen)$/i.test(lead.lemma) || (/^turn$/i.test(lead.lemma) && /^out$/i.test(tokens[1]?.text ?? ''));
  // "Gone because of a login timeout.": a participle, not a past the participant did; what was gone is "it".
  if (clipped && PARTICIPLE.test(lead.text)) return ended(`The participant said it was ${lowerFirst(text)}`);
  if (clipped) return ended(capitalise(itSubject ? `The participant said it ${lowerFirst(text)}` : `The participant ${lowerFirst(text)}`));
  const reported = firstPerson ? null : reportedAs(tokens, text);
  if (reported) return ended(reported);
  // A name keeps its capital ("ZipRide", "Saturday").
  if (!firstPerson) text = `The participant said ${isName(lead, sentence.text, names) ? text : lowerFirst(text)}`;
  return ended(capitalise(text));
}

const REQUEST = /^(?:(?:and|so|just|please|also|oh|then),?\s+)*(show|give|send|tell|let|remind|warn|notify|alert|email|text|ping) (?:me|us) (?!(?:see|think|check|remember|guess)\b[,.]?)(.{3,}?)(?:,?\s*please)?[.!]*$/i;
const DONT_REQUEST = /^(?:(?:and|so|just|please|also|oh|then),?\s+)*(?:don'?t|do not|never) ([a-z]+) (me|us)\b(.*)$/i;
const AS_WANTED: Record<string, string> = { show: 'to see', give: '', send: '', email: '', text: '', tell: 'to be told', let: 'to', remind: 'to be reminded', warn: 'to be warned', notify: 'to be notified', alert: 'to be alerted', ping: 'to be pinged' };
/** A request of the team in the imperative, in the participant's words as a want: "Show me X" → "I want to see X". */
function asRequested(text: string): string | null {
  const asked = REQUEST.exec(text);
  if (asked) return `I want ${AS_WANTED[asked[1].toLowerCase()]} ${asked[2]}`.replace(/\s+/g, ' ');
  const refused = DONT_REQUEST.exec(text);
  return refused ? `I don't want it to ${refused[1].toLowerCase()} ${refused[2].toLowerCase()}${refused[3]}` : null;
}

/** Past participles that are no past tense ("gone", not "went"). */
const PARTICIPLE = /^(?:gone|done|seen|been|known|taken|given|broken|eaten|written|driven|forgotten|frozen|stolen|chosen|spoken|hidden|shown|fallen|thrown|drawn|grown|flown|worn|torn|shaken|woken|mistaken|begun)$/i;

const HABIT = /^(?:always|usually|normally|generally|often|sometimes|never|mostly)$/i;

/** A full stop, unless the claim ends on a quotation that has its own: `it said "Try again."`. */
const ended = (text: string) => (/[.!?]["”’]$/.test(text) ? text : `${text}.`);

/** How they felt, said without "I was": "Pretty anxious, because…" → "The participant felt pretty anxious, because…". */
const FEELINGS = 'anxious|nervous|worried|scared|afraid|stressed|frustrated|annoyed|angry|furious|livid|fuming|gutted|upset|confused|baffled|lost|helpless|relieved|happy|glad|pleased|delighted|thrilled|surprised|shocked|embarrassed|disappointed|overwhelmed|fed up|exhausted|tired|impressed';
const FEELING = new RegExp(`^(?:${FEELINGS})$`, 'i');
/** A feeling said alone: "Frustrated, honestly.", "Honestly livid.", "Pretty relieved!". */
const FEELING_ALONE = new RegExp(
  `^(?:(?:honestly|really|just|so|oh|well|um|uh|yeah|mostly|i mean),?\\s+)*((?:(?:pretty|very|really|so|quite|totally|absolutely|a bit|a little|kind of|super|incredibly|just)\\s+)*(?:${FEELINGS}))(?:,?\\s+(?:honestly|really|to be honest|tbh|mostly|i guess|i think))*[.!]*$`,
  'i',
);

/**
 * A quote that is not a statement with a subject, said as what the participant did with it: a
 * request ("Just tell me when it's ready." → "…asked the team to just tell them when it's ready"), a
 * moment named by an "-ing" ("…described showing up and…"), a feeling ("…felt pretty anxious"), a
 * judgement ("Kind of annoying?" → "…found it kind of annoying") or a thing ("…mentioned their own-brand range").
 */
function reportedAs(tokens: Word[], text: string): string | null {
  const words = tokens.filter((t) => t.pos !== 'PUNCT');
  let k = 0;
  while (k < words.length - 1 && /^(?:just|please|so|and|oh|well|honestly)$/i.test(words[k].text)) k++;
  const head = words[k];
  if (!head) return null;
  // The main clause: up to the first comma or subordinate conjunction.
  const end = tokens.findIndex((t, i) => i > 0 && ((t.pos === 'PUNCT' && t.text === ',') || t.pos === 'SCONJ' || /^(?:when|where|if|whether|before|after|until|once|because)$/i.test(t.text)));
  const main = (end < 0 ? tokens : tokens.slice(0, end)).filter((t) => t.pos !== 'PUNCT');
  const said = lowerFirst(text.replace(/,?\s*please$/i, '').replace(/^please,?\s*/i, ''));
  const request = said.replace(/^(?:just|so|and|oh|well|honestly),?\s+/i, '');
  // A capital at the start can make the tagger take a verb for a name ("Show me…"): asked again after "you should".
  // An imperative's clause has no other finite verb: "Pay button is hidden", "Export takes forever" tell, they do not ask.
  const finite = main.slice(main.indexOf(head) + 1).some((t) => t.pos === 'AUX' || (t.pos === 'VERB' && t.text.toLowerCase() !== t.lemma.toLowerCase() && !/ing$/i.test(t.text)));
  const asks = /ing$/i.test(head.text) || finite ? null : parse(`you should ${request}`)[0]?.tokens[2];
  // Asked of the team, not a step they took ("Click export, then wait"): with "please", of "me"/"us", or a verb that asks for a change.
  const ofTheTeam = /\bplease\b/i.test(text) || /^(?:me|us)$/i.test(words[k + 1]?.text ?? '') || /^(?:make|add|fix|bring|remind|warn|notify|let|stop|keep)$/i.test(asks?.lemma ?? '');
  if (ofTheTeam && asks?.pos === 'VERB' && asks.text.toLowerCase() === asks.lemma.toLowerCase()) return `The participant asked the team to ${said.replace(/^(?:so|and|oh|well|honestly),?\s+/i, '')}`;
  // A step told as an imperative ("Search for the invoice number, it never works") is reported as said.
  if (asks?.pos === 'VERB' && asks.text.toLowerCase() === asks.lemma.toLowerCase()) return null;
  // "Finding the report took a while": the "-ing" is the subject of what happened, said as it is.
  const afterHead = main.slice(main.indexOf(head) + 1);
  const and = afterHead.findIndex((t) => t.pos === 'CCONJ');
  const beforeAnd = and < 0 ? afterHead : afterHead.slice(0, and);
  const ofAVerb = beforeAnd.some((t) => t.pos === 'AUX' || (t.pos === 'VERB' && t.text.toLowerCase() !== t.lemma.toLowerCase() && !/ing$/i.test(t.text)));
  if (head.pos === 'VERB' && /ing$/i.test(head.text) && k === 0 && !ofAVerb) return `The participant described ${said}`;
  // Verbless only if what follows the main clause depends on it ("Pretty anxious, because…"), not a clause of its own ("For the refunds, I want…").
  const rest = end < 0 ? [] : tokens.slice(end);
  const dependent = rest.length === 0 || rest[0].pos === 'SCONJ' || /^(?:because|when|if|before|after|until|since)$/i.test((rest[0].text === ',' ? rest[1] : rest[0])?.text ?? '');
  if (main.some((t) => t.pos === 'VERB' || t.pos === 'AUX') || (!dependent && rest.some((t) => t.pos === 'VERB' || t.pos === 'AUX'))) return null;
  if (main.some((t) => FEELING.test(t.text))) return `The participant felt ${said}`;
  // "Kind of annoying", "Really slow": a judgement ends on it; "their own-brand range" is a thing.
  const last = main[main.length - 1];
  // "Perhaps if…", "Just that the busy weeks…": a hedge before a clause is no judgement.
  const judgement = last?.pos === 'ADJ' || (last?.pos === 'ADV' && !/^(?:perhaps|maybe|just|so|well|honestly|really|actually|basically|probably|only|also|then|now)$/i.test(last.text));
  if (judgement) return `The participant found it ${said}`;
  if (main.some((t) => t.pos === 'NOUN' || t.pos === 'PROPN')) return `The participant mentioned ${said}`;
  return null;
}
