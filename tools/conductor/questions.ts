import { isKnownWord, parse, type Token } from '../../core/nlp.ts';

/**
 * What the built-in conductor says to the participant, derived from a segment written for the
 * interviewer. Nothing of the instruction reaches the participant as written: only questions
 * in it (sentences ending in "?", or quoted), and questions made from imperative instructions
 * ("Ask what they used before" → "What did you use before?"), in the second person.
 */
export interface QuestionSource {
  mode: string;
  title: string;
  instruction?: string;
}

export interface QuestionPlan {
  questions: string[];
  /** True when nothing in the instruction gave a question and a generic one about the title is asked. */
  generic: boolean;
  /** Questions the guide asks only on some answers ("If they say yes, ask how …"): asked right after question `after`. */
  branches: Branch[];
  /** Questions written as notes ("Price ok?", "Trial?"), as the guide wrote them, whether or not they could be asked more fully. */
  notes: string[];
  /** Sentences of a talk instruction that give no question: read as the interviewer's notes, never said to the participant. */
  unasked: string[];
}

/** A question asked after question `after` when its answer says yes, says no, or mentions one of `words`. */
export interface Branch {
  after: number;
  when: 'yes' | 'no' | 'mentions' | 'at most' | 'at least' | 'between';
  /** The words mentioned, or for a score the one number it is compared with. */
  words: string[];
  question: string;
}

const SAYS_YES = /^(?:yes|yeah|yea|ya|yep|yup|uh-huh|mhm|sure|definitely|absolutely|of course|i do|we do|i have|we have|i did|we did|it (?:has|did|does)|i think so|i would say so|sometimes|often|a (?:few|couple)|once|twice|all the time)\b/i;
const SAYS_NO = /^(?:no(?!\s+(?:idea|clue|problem|worries))|nope|nah|never|not really|not (?:yet|once|ever|that i (?:know|remember|recall))|none|i (?:don'?t|haven'?t|didn'?t)|we (?:don'?t|haven'?t|didn'?t)|i(?:'ve| have)? never|we(?:'ve| have)? never|i don'?t think so)\b/i;
/** What comes before a yes or a no without changing it: "Um, actually, yes", "Honestly? No." */
const LEAD_IN = /^(?:(?:um+|uh+|er+m?|well|oh|ah|hmm+|hm|so|actually|honestly|to be honest|i mean|i guess|i suppose|i'd say)[,.?!]?\s+)+/i;
/** "Yeah, no, not really": a yes that takes itself back. */
const TAKEN_BACK = /^(?:yes|yeah)[,.]?\s+(?:no|not really)\b/i;

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** The first number an answer gives ("4", "a 3 I guess", "maybe two"), or null. */
function scoreIn(answer: string): number | null {
  const m = new RegExp(`\\b(\\d{1,2}|${NUMBER_WORDS.join('|')})\\b`, 'i').exec(answer);
  if (!m) return null;
  return /^\d/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS.indexOf(m[1].toLowerCase());
}

/** Whether an answer to question `branch.after` calls for the branch. */
export function branchApplies(branch: Branch, answer: string): boolean {
  const said = answer.trim().replace(LEAD_IN, '');
  if (branch.when === 'yes') return SAYS_YES.test(said) && !TAKEN_BACK.test(said);
  if (branch.when === 'no') return SAYS_NO.test(said) || TAKEN_BACK.test(said);
  if (branch.when === 'at most' || branch.when === 'at least' || branch.when === 'between') {
    const given = scoreIn(said);
    const [n, m] = branch.words.map(Number);
    return given !== null && (branch.when === 'at most' ? given <= n : branch.when === 'at least' ? given >= n : given >= n && given <= m);
  }
  // "spreadsheets" is mentioned by "a spreadsheet" and "Google Sheets".
  const mentions = (w: string) => new RegExp(`\\b${w.replace(/s$/, '')}|${/^spreadsheets?$/.test(w) ? '\\bsheets?\\b' : '(?!)'}`, 'i').test(said);
  // A phrase is mentioned by its last word, the thing it names: "the unlock fee" by "the fee", "group chat" by "a chat".
  return branch.words.some((phrase) => mentions(phrase.split(' ').at(-1)!));
}

const CONDITION_YES = /^if (?:yes|so|they (?:say|answer) yes|(?:they|the participant) (?:do|does|did|have|has|are|is)(?! not|n't))\b/i;
const CONDITION_NO = /^if (?:no|not|they (?:say|answer) no|(?:they|the participant) (?:don'?t|doesn'?t|didn'?t|haven'?t|hasn'?t|aren'?t|isn'?t))\b/i;
const CONDITION_MENTIONS = /^if (?:they|the participant) (?:mention|mentions|bring up|brings up|talk about|talks about|raise|raises|say|says)\s+(.+?)\s*(?:[,:—–]|\s-\s)|^if (.{2,40}?) (?:comes? up|(?:is|are|gets?) (?:mentioned|brought up|raised))\s*(?:[,:—–]|\s-\s)/i;
/** "If 3 or lower", "If they rate it below 4", "if 5 or higher": a branch on the number given. */
const CONDITION_SCORE = /^if (?:(?:they|the participant) (?:give|gives|rate|rates|score|scores|say|says|answer|answers|pick|picks) (?:it |a |an )?)?(?:(\d{1,2}) or (lower|less|below|under|higher|more|above)|(below|under|less than|lower than|above|over|more than|higher than) (\d{1,2})|(\d{1,2})\s*(?:–|-|to)\s*(\d{1,2}))\s*(?:[,:—–]|\s-\s)/i;
const NOT_A_CUE = new Set(['the', 'a', 'an', 'or', 'and', 'any', 'other', 'some', 'things', 'stuff', 'their', 'them', 'they', 'it', 'that', 'this', 'something', 'anything', 'about']);

/** The branch of a sentence such as "If they say yes, ask how they decide by how much.", or null. */
function branchOf(sentence: string): Omit<Branch, 'after'> | null {
  const yesOrNo = CONDITION_YES.test(sentence) ? 'yes' : CONDITION_NO.test(sentence) ? 'no' : null;
  const score = yesOrNo ? null : CONDITION_SCORE.exec(sentence);
  const mentions = yesOrNo || score ? null : CONDITION_MENTIONS.exec(sentence);
  const range = score && score[5] !== undefined;
  const low = score && !range && /^(?:lower|less|below|under)/i.test(score[2] ?? score[3]);
  const when = yesOrNo ?? (score ? (range ? 'between' : low ? 'at most' : 'at least') : mentions ? 'mentions' : null);
  // For a score the condition ends after it ("If 9–10: ask…"), not at its dash.
  const cut = score ? { index: score[0].length - 1, 0: sentence[score[0].length - 1] } : /[,:—–]|\s-\s/.exec(sentence);
  if (!when || !cut) return null;
  const mentioned = mentions ? mentions[1] ?? mentions[2] : '';
  // "below 4" is at most 3; "3 or lower" at most 3.
  // "spreadsheets or Excel" is two things, either of which is a mention; "group chat" is one.
  const things = mentioned.toLowerCase().split(/\s*(?:,|\/|\bor\b|\band\b)\s*/).map((alt) => alt.split(/[^a-z'-]+/).filter((x) => x.length >= 3 && !NOT_A_CUE.has(x)).join(' ')).filter(Boolean);
  const words = range ? [score[5], score[6]].map((x) => String(Number(x))) : score ? [String(score[1] ? Number(score[1]) : Number(score[4]) + (low ? -1 : 1))] : things;
  if (when === 'mentions' && !words.length) return null;
  let then = sentence.slice(cut.index + cut[0].length);
  // "If they mention arguments, ask what usually triggers them": "them" is the arguments, not the participant.
  const named = mentions && /^(?:(?:the|a|an|any|some)\s+)?([a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})$/i.exec(mentioned.trim());
  if (named && !/\b(?:or|and|their|his|her)\b/i.test(named[1])) then = then.replace(/(?<!\b(?:ask|have|let|get|tell|help|invite|encourage|prompt|watch)\s+)\bthem\b/gi, `the ${named[1]}`);
  const [question] = talkSentence(wordsOf(then));
  return question ? { when, words, question } : null;
}

const WH = new Set(['what', 'how', 'why', 'when', 'where', 'which', 'who', 'whom', 'whose']);
const YESNO = new Set(['whether', 'if']);
const PEOPLE = new Set(['participant', 'participants', 'user', 'users', 'customer', 'customers', 'respondent', 'respondents', 'interviewee', 'interviewees', 'tester', 'testers', 'person']);
/** Verbs that introduce what to learn: "Find out how …", "Explore their onboarding". */
const LEARN = new Set(['learn', 'understand', 'discover', 'explore', 'establish', 'determine', 'uncover', 'probe', 'check', 'clarify', 'investigate', 'cover', 'capture', 'see', 'know', 'gauge', 'assess', 'identify', 'dig', 'look', 'discuss']);
/** Prepositions after a LEARN verb that mean "about": "Probe on pricing", "Dig into what happened". */
const ABOUT = new Set(['about', 'on', 'into', 'around']);
/** Verbs that hand the participant a task: "Have them describe …", "Watch them pay …". */
const HAND = new Set(['have', 'get', 'let', 'invite', 'encourage', 'prompt', 'watch', 'observe', 'tell', 'request', 'need']);
/** Imperatives a participant can be given directly ("Tell me about …"). */
const TO_PARTICIPANT = new Set(['tell', 'describe', 'walk', 'show', 'explain', 'share', 'talk', 'give', 'name', 'list', 'think']);
const LEADING_FILLER = new Set(['then', 'also', 'next', 'first', 'finally', 'now', 'briefly', 'gently', 'please', 'lastly', 'afterwards', 'and', 'so']);
const NO_SPACE_BEFORE = /^(?:[,.;:?!)]|'s|'re|'ve|'d|'ll|'m|n't|’s|’re)$/i;

interface W {
  text: string;
  pos: string;
  lemma: string;
  negated?: boolean;
  /** Whitespace before the word in the instruction ("85%", "client-specific", "sites/brokers" keep theirs); none for a word put in. */
  space?: string;
}

const lower = (s: string) => s.toLowerCase();
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function render(words: W[]): string {
  let out = '';
  for (const w of words) {
    if (!out) out = w.text;
    else if (w.space === '' && w.text !== '—') out += w.text;
    else out += NO_SPACE_BEFORE.test(w.text) ? w.text : ` ${w.text}`;
  }
  return out;
}

const w = (text: string, pos = 'X', lemma = lower(text)): W => ({ text, pos, lemma });
const isPerson = (t: W) => ['they', 'them', 'participant', 'user', 'customer'].includes(t.lemma) || PEOPLE.has(lower(t.text));

/** Length of a reference to the participant starting at i ("the participant", "them", "he or she"), or 0. */
function personAt(t: W[], i: number): { length: number; possessive: boolean } {
  const a = t[i] ? lower(t[i].text) : '';
  const b = t[i + 1] ? lower(t[i + 1].text) : '';
  const c = t[i + 2] ? lower(t[i + 2].text) : '';
  if ((a === 'he' || a === 'him') && b === 'or' && (c === 'she' || c === 'her')) return { length: 3, possessive: false };
  if (a === 'his' && b === 'or' && c === 'her') return { length: 3, possessive: true };
  if (['the', 'a', 'each', 'every', 'this'].includes(a) && PEOPLE.has(b)) return { length: c === "'s" || c === '’s' ? 3 : 2, possessive: c === "'s" || c === '’s' };
  // "Participant describes …" opens on the participant; "Customers finding out — worries?" on the participant's customers.
  if (PEOPLE.has(a) && i === 0 && !/s$/.test(a)) return { length: 1, possessive: false };
  if (a === 'they' || a === 'them' || a === 'themselves' || a === 'themself' || a === 'he' || a === 'she' || a === 'him' || a === 'himself' || a === 'herself') return { length: 1, possessive: false };
  if (a === 'their' || a === 'theirs') return { length: 1, possessive: true };
  return { length: 0, possessive: false };
}

const EXPAND: Record<string, string> = { "'re": 'are', "'s": 'is', "'ve": 'have', "'d": 'would', "'ll": 'will', "'m": 'am', 'ca': 'can', 'wo': 'will' };
const AGREE: Record<string, string> = { was: 'were', is: 'are', has: 'have', does: 'do', "'s": "'re", wasn: 'weren' };

/** A verb in its form after "you": "was" → "were", "expects" → "expect". */
function agree(v: W): W {
  const t = lower(v.text);
  if (AGREE[t]) return { ...v, text: AGREE[t] };
  if (v.pos === 'VERB' && /s$/.test(t) && t !== v.lemma && (t === `${v.lemma}s` || t === `${v.lemma}es` || t === `${v.lemma.replace(/y$/, '')}ies`)) return { ...v, text: v.lemma };
  return v;
}

/**
 * Rewrites words about the participant into the second person, with the verb after a converted
 * singular subject agreeing. With `interviewerYou`, "you/your" in the source mean the
 * interviewer and become "me/my" (as in "Ask them to walk you through setup").
 */
function secondPerson(words: W[], interviewerYou: boolean, theySaid = false, themIsAThing = false): W[] {
  const out: W[] = [];
  // "what they do with them": once "they" is the clause's subject, "them" is something else.
  let theyInClause = theySaid;
  for (let i = 0; i < words.length; i++) {
    const t = lower(words[i].text);
    if (WH.has(t) || /^(?:SCONJ|CCONJ|PUNCT)$/.test(words[i].pos)) theyInClause = false;
    if (t === 'they') theyInClause = true;
    // "…the entry that stood out most to them": to or for them is the participant.
    else if (t === 'them' && (theyInClause || (themIsAThing && !/^(?:to|for)$/i.test(words[i - 1]?.text ?? '')))) {
      // Said as "those": a participant question never says "them" (see DIRECTED).
      out.push({ ...words[i], text: 'those', lemma: 'those' });
      continue;
    }
    if (interviewerYou && (t === 'you' || t === 'your' || t === 'yours' || t === 'yourself')) {
      const subject = words[i + 1] && (words[i + 1].pos === 'AUX' || words[i + 1].pos === 'VERB');
      const mine = { you: subject ? 'I' : 'me', your: 'my', yours: 'mine', yourself: 'myself' }[t]!;
      out.push({ ...words[i], text: mine, pos: 'PRON' });
      continue;
    }
    const p = personAt(words, i);
    if (!p.length) {
      out.push(words[i]);
      continue;
    }
    const first = lower(words[i].text);
    const reflexive = /self$/.test(first);
    const singular = !['they', 'them', 'their', 'theirs'].includes(first) && !/s$/.test(lower(words[i + p.length - (p.possessive && p.length > 1 ? 2 : 1)].text));
    out.push(w(reflexive ? 'yourself' : p.possessive ? (first === 'theirs' ? 'yours' : 'your') : 'you', 'PRON'));
    i += p.length - 1;
    if (!p.possessive && !reflexive) {
      // The verb after a subject turned into "you" agrees with it (adverbs may stand between).
      let j = i + 1;
      while (words[j] && words[j].pos === 'ADV') j++;
      if (words[j] && (words[j].pos === 'AUX' || words[j].pos === 'VERB') && (singular || AGREE[lower(words[j].text)] === 'were')) {
        for (let k = i + 1; k < j; k++) out.push(words[k]);
        out.push(agree(words[j]));
        i = j;
      }
    }
  }
  return out;
}

/** Words the model may tag as a verb before the real one ("when they last changed"). */
const ADVERBISH = new Set(['last', 'first', 'never', 'always', 'just', 'still', 'ever', 'often', 'usually', 'really', 'finally', 'only']);

/** True when the verb is past tense as written ("used", "took"), by comparison with its lemma. */
function past(v: W): boolean {
  const t = lower(v.text);
  if (t === v.lemma || t === 'has' || t === 'is' || t === 'are' || t === 'am') return false;
  if (t === `${v.lemma}s` || t === `${v.lemma}es` || t === `${v.lemma.replace(/y$/, '')}ies`) return false;
  if (/ing$/.test(t)) return false;
  return true;
}
const thirdSingular = (v: W) => !past(v) && lower(v.text) !== v.lemma && !/ing$/.test(lower(v.text));
/** Verbs spelled the same in the present and the past ("why they put their top one first"). */
const SAME_FORM = new Set(['put', 'set', 'cut', 'let', 'hit', 'read', 'quit', 'shut', 'spread', 'split', 'cost', 'hurt', 'upset']);
/** Words that make a clause a habit, asked in the present ("where they usually put receipts"). */
const HABIT = /^(?:usually|always|often|normally|typically|generally|sometimes|ever|never|each|every|regularly|currently|now|still|tend)$/i;
/** The "do" of such a verb, decided once the other questions of the part are known (`questionPlan`). */
const SAME_FORM_DO = 'Zqxdo';

/** The wh-phrase at the start of an embedded clause: "what", "how long", "which tools", "what kind of tools". */
function whPhraseLength(t: W[]): number {
  const wh = lower(t[0].text);
  let n = 1;
  if (wh === 'how') while (t[n] && (t[n].pos === 'ADJ' || t[n].pos === 'ADV') && !isPerson(t[n])) n++;
  // "how many people they pay": the counted noun belongs to the wh-phrase.
  if (wh === 'how' && /^(?:many|much)$/i.test(t[n - 1]?.text ?? '')) {
    while (t[n] && t[n].pos === 'NOUN') n++;
    // "how many hours a week": the rate is part of it.
    if (/^(?:a|an|per|each|every)$/i.test(t[n]?.text ?? '') && /^(?:day|week|month|year|quarter|shift|term)$/i.test(t[n + 1]?.text ?? '')) n += 2;
  }
  if (wh === 'what' || wh === 'which' || wh === 'whose') {
    // "what year and programme": nouns joined by "and"/"or" are one wh-phrase.
    while (t[n] && (t[n].pos === 'NOUN' || t[n].pos === 'ADJ' || (n > 1 && /^(?:and|or)$/i.test(t[n].text) && t[n + 1]?.pos === 'NOUN')) && !isPerson(t[n])) n++;
    if (n > 1 && t[n] && lower(t[n].text) === 'of') {
      let m = n + 1;
      while (t[m] && (t[m].pos === 'NOUN' || t[m].pos === 'ADJ')) m++;
      if (m > n + 1) n = m;
    }
  }
  return n;
}

const SUBORDINATE = new Set(['when', 'if', 'because', 'while', 'before', 'after', 'until', 'since', 'so', 'whenever']);
const SUBJECT_PRONOUN = new Set(['they', 'we', 'i', 'you', 'he', 'she']);

/** The subject at the start of `t` (before its first verb), or 0 when a verb comes first. */
function subjectLength(t: W[]): number {
  // A subject pronoun takes no words after it, so what follows is its verb even when tagged as a noun ("they onboard new hires").
  if (t[0] && SUBJECT_PRONOUN.has(lower(t[0].text)) && t[1] && (t[1].pos === 'NOUN' || t[1].pos === 'ADJ') && !ADVERBISH.has(lower(t[1].text))) {
    t[1] = { ...t[1], pos: 'VERB' };
    return 1;
  }
  // "the participant talks/NOUN to an advisor": after a reference to the participant comes their verb.
  const person = personAt(t, 0);
  if (person.length && !person.possessive && t[person.length] && /^(?:NOUN|ADJ)$/.test(t[person.length].pos) && /s$/i.test(t[person.length].text)) {
    t[person.length] = { ...t[person.length], pos: 'VERB' };
    return person.length;
  }
  let n = 0;
  const nominal = (x: W | undefined) => !!x && (['PRON', 'DET', 'NOUN', 'PROPN', 'ADJ', 'NUM', 'PART'].includes(x.pos) || (x.text === '-' && x.space === '')) && lower(x.text) !== 'to';
  // "price or class schedule made them switch": a coordinated subject.
  while (nominal(t[n]) || (n > 0 && /^(?:or|and)$/i.test(t[n]?.text ?? '') && nominal(t[n + 1]) && t[n + 1].pos !== 'PRON')) n++;
  if (!t[n] || (t[n].pos !== 'AUX' && t[n].pos !== 'VERB')) return n && t[n]?.pos === 'ADV' ? (t[n + 1] && (t[n + 1].pos === 'VERB' || t[n + 1].pos === 'AUX') ? n : 0) : 0;
  return n;
}

/**
 * An embedded question ("what the participant was trying to do", "whether they finished")
 * as a direct one ("what were you trying to do", "did you finish"), lower-case, no "?".
 */
function directQuestion(clause: W[], interviewerYou: boolean): string | null {
  if (!clause.length) return null;
  const head = lower(clause[0].text);
  const yesno = YESNO.has(head);
  let whLen = yesno ? 1 : whPhraseLength(clause);
  // "when and where they log": both wh-words lead the question.
  while (!yesno && /^(?:and|or)$/i.test(clause[whLen]?.text ?? '') && WH.has(lower(clause[whLen + 1]?.text ?? ''))) whLen += 2;
  const wh = yesno ? [] : clause.slice(0, whLen);
  const rest = clause.slice(whLen);
  if (!rest.length) return yesno ? null : render(wh);
  const subjLen = subjectLength(rest);
  if (!subjLen) {
    if (yesno) return null;
    return render(secondPerson([...wh, ...rest], interviewerYou));
  }
  // Adverbs between subject and verb ("they usually pay") stay before the verb.
  let v = subjLen;
  const adverbs: W[] = [];
  while (rest[v] && (rest[v].pos === 'ADV' || (ADVERBISH.has(lower(rest[v].text)) && rest[v + 1] && rest[v + 1].pos === 'VERB'))) adverbs.push(rest[v++]);
  let verb = rest[v];
  if (!verb) return null;
  // "what they did next": "did" is the main verb here, not an auxiliary.
  // Only the clause's own words count: in "what they do when an export fails", "fails" is another clause's.
  const own = rest.slice(v + 1);
  const sub = own.findIndex((x) => SUBORDINATE.has(lower(x.text)));
  const ownClause = sub < 0 ? own : own.slice(0, sub);
  // So is a "did" a noun phrase follows ("what they did the last time the class was full"): its verbs are the phrase's.
  const phraseNext = /^(?:DET|NOUN|PROPN|ADP)$/.test(own[0]?.pos ?? '');
  if (verb.pos === 'AUX' && verb.lemma === 'do' && (phraseNext || !ownClause.some((x) => x.pos === 'VERB' || lower(x.text) === "n't" || lower(x.text) === 'not'))) verb = { ...verb, pos: 'VERB' };
  // "whether they have a budget", "if they have to pay upfront": "have" is the main verb ("Do you have a budget?").
  if (verb.pos === 'AUX' && verb.lemma === 'have' && (lower(own[0]?.text ?? '') === 'to' || !ownClause.some((x) => x.pos === 'VERB' || x.pos === 'AUX' || lower(x.text) === "n't" || lower(x.text) === 'not'))) verb = { ...verb, pos: 'VERB' };
  const subject = secondPerson(rest.slice(0, subjLen), interviewerYou);
  const toYou = subject.length === 1 && lower(subject[0].text) === 'you';
  const after = rest.slice(v + 1);
  const front: W[] = [];
  let tail: W[];
  if (verb.pos === 'AUX' && yesno && toYou && lower(verb.text) === 'could' && !/^n't$/i.test(after[0]?.text ?? '') && lower(after[0]?.text ?? '') !== 'not') {
    // "whether they could check the receipt": whether they were able to, not a request ("Could you check…?").
    front.push(w('were', 'AUX', 'be'));
    tail = [w('able', 'ADJ', 'able'), w('to', 'PART', 'to'), ...adverbs, ...after];
  } else if (verb.pos === 'AUX') {
    const expanded = EXPAND[lower(verb.text)];
    // "they'd" → "would": the contraction had no space before it, the word does.
    const aux = expanded ? { ...verb, text: expanded, space: ' ' } : verb;
    front.push(toYou ? agree(aux) : aux);
    if (after[0] && /^n't$/i.test(after[0].text)) front.push(after.shift()!);
    tail = [...adverbs, ...after];
  } else {
    const plural = toYou || (subject.length === 1 && ['they', 'we', 'i'].includes(lower(subject[0].text)));
    const either = plural && SAME_FORM.has(lower(verb.text)) && ![...adverbs, ...ownClause].some((x) => HABIT.test(x.text));
    front.push(w(either ? SAME_FORM_DO : past(verb) ? 'did' : thirdSingular(verb) && !plural ? 'does' : 'do', 'AUX', 'do'));
    tail = [...adverbs, { ...verb, text: verb.lemma }, ...after];
  }
  const they = rest.slice(0, subjLen).some((x) => lower(x.text) === 'they');
  return render([...secondPerson(wh, interviewerYou), ...front, ...subject, ...secondPerson(tail, interviewerYou, they)]);
}

const isClauseStart = (t: W | undefined) => !!t && (WH.has(lower(t.text)) || YESNO.has(lower(t.text)) || ['about', 'for'].includes(lower(t.text)));

/** Splits "X, what Y, and how Z" where a new wh-clause (or "about …") begins. */
function splitParts(t: W[]): W[][] {
  const parts: W[][] = [[]];
  for (let i = 0; i < t.length; i++) {
    const tok = t[i];
    const word = lower(tok.text);
    // "what, if anything, took longer": a parenthesis, not a new clause.
    if (word === ',' && lower(t[i + 1]?.text ?? '') === 'if' && /^(?:anything|any|so|ever)$/i.test(t[i + 2]?.text ?? '') && t[i + 3]?.text === ',') {
      parts[parts.length - 1].push(...t.slice(i, i + 4));
      i += 3;
      continue;
    }
    // "when and where they log hours" is one clause with two wh-words.
    const onlyWh = parts[parts.length - 1].every((x) => WH.has(lower(x.text)));
    if ((word === ',' || word === 'and' || word === 'or' || word === ';') && parts[parts.length - 1].length && !onlyWh) {
      let j = i + 1;
      while (t[j] && ['and', 'or', ','].includes(lower(t[j].text))) j++;
      if (isClauseStart(t[j])) {
        parts.push([]);
        i = j - 1;
        continue;
      }
    }
    parts[parts.length - 1].push(tok);
  }
  return parts.filter((p) => p.length);
}

const stripEnd = (t: W[]) => {
  const out = [...t];
  while (out.length && (out[out.length - 1].pos === 'PUNCT' || /^[.!;:,]$/.test(out[out.length - 1].text))) out.pop();
  return out;
};

function dropFiller(t: W[]): W[] {
  let i = 0;
  // "First week with Acme": an adjective of the thing named, not "First, …".
  while (t[i] && (LEADING_FILLER.has(lower(t[i].text)) || t[i].text === ',') && !(/^(?:first|next)$/i.test(t[i].text) && t[i + 1]?.pos === 'NOUN')) i++;
  return t.slice(i);
}

/** Questions from one body after the lead ("about X", "what X and how Y", "for X"). */
function questionsFromBody(body: W[], lead: 'ask' | 'learn'): string[] {
  const out: string[] = [];
  let whClauses: string[] = [];
  const flush = () => {
    if (!whClauses.length) return;
    const list = whClauses.length === 1 ? whClauses[0] : whClauses.length === 2 ? `${whClauses[0]}, and ${whClauses[1]}` : `${whClauses.slice(0, -1).join(', ')}, and ${whClauses[whClauses.length - 1]}`;
    out.push(`${capitalise(list)}?`);
    whClauses = [];
  };
  for (const part of splitParts(body)) {
    const head = lower(part[0].text);
    // "…, and if not, why not": the condition stays with its "why not".
    if (head === 'if' && /^not$/i.test(part[1]?.text ?? '') && whClauses.length) {
      whClauses[whClauses.length - 1] += ', and if not';
      continue;
    }
    if (/^why not$/i.test(render(stripEnd(part))) && /, and if not$/.test(whClauses.at(-1) ?? '')) {
      whClauses[whClauses.length - 1] += ', why not';
      continue;
    }
    if (WH.has(head) || YESNO.has(head)) {
      // The parenthesis is set aside while the clause is inverted, then put back after its wh-word.
      const aside = part[1]?.text === ',' && lower(part[2]?.text ?? '') === 'if' && part[4]?.text === ',' ? part.slice(1, 5) : null;
      const q = directQuestion(aside ? [part[0], ...part.slice(5)] : part, true);
      if (q) whClauses.push(aside ? q.replace(/^(\S+)/, `$1, if ${aside[2].text},`) : q);
      continue;
    }
    flush();
    // "Ask about what was the most annoying part": the question itself ("What was the most annoying part?").
    const about = head === 'about' && WH.has(lower(part[1]?.text ?? '')) ? directQuestion(part.slice(1), true) : null;
    if (about) {
      out.push(`${capitalise(about)}?`);
    } else if (head === 'about' || (head === 'for' && lead === 'learn')) {
      if (part.length > 1) out.push(`Could you tell me about ${render(secondPerson(part.slice(1), true))}?`);
    } else if (head === 'for') {
      if (part.length > 1) out.push(`Could you share ${render(secondPerson(part.slice(1), true))}?`);
    } else if (['DET', 'PRON', 'ADJ', 'NOUN', 'PROPN', 'NUM'].includes(part[0].pos) && part.some((t) => t.pos === 'NOUN' || t.pos === 'PROPN')) {
      out.push(`Could you tell me about ${render(secondPerson(part, true))}?`);
    }
  }
  flush();
  return out;
}

/** "to describe X" / "describe X" after a person: "Could you describe X?" */
function couldYou(t: W[]): string | null {
  let i = 0;
  if (t[i] && lower(t[i].text) === 'to') i++;
  const verb = t[i];
  if (!verb || (verb.pos !== 'VERB' && verb.pos !== 'AUX' && verb.pos !== 'PROPN')) return null;
  // "Ask them to find the opening hours and add them to their calendar": the second "them" is the hours.
  const rest = secondPerson(t.slice(i + 1), true, false, true);
  // "walk through setup" is said to someone: "walk me through setup".
  if (lower(verb.lemma) === 'walk' && rest[0] && lower(rest[0].text) === 'through') rest.unshift(w('me', 'PRON'));
  return `Could you ${render([{ ...verb, text: lower(verb.lemma) }, ...rest])}?`;
}

// A paragraph break is a token of its own ("\n\n"): it would stand where an instruction's first word is looked for.
const toWords = (tokens: Token[]): W[] => tokens.filter((t) => t.pos !== 'SPACE').map((t) => ({ text: t.text, pos: t.pos, lemma: lower(t.lemma), negated: t.negated, space: t.space }));
/** The words of a text, across its sentences. */
const wordsOf = (text: string): W[] => toWords(parse(text).flatMap((s) => s.tokens));

/** Topics that are the participant's own: "Background — role, team size" asks about "your background: your role". */
const OWN = /^(?:background|role|job|team|work|routine|week|day|setup|workflow|process|history|company|business|household|family|habits?|goals?|budget|schedule)$/i;

/**
 * A guide's shorthand "Last bike bought — where, how much, how they knew it wasn't stolen":
 * a topic, a dash, then what to ask about it, as one question.
 */
function dashTopic(t: W[]): string[] | null {
  // A hyphen inside a word ("no-show") is no dash.
  const dash = t.findIndex((x) => /^(?:—|–|:)$/.test(x.text) || (x.text === '-' && x.space !== ''));
  // After the dash, a question word ("— what happened, …") or a list of things ("— first thing they did, first 'aha', first disappointment").
  const listed = !WH.has(lower(t[0]?.text ?? '')) && !YESNO.has(lower(t[0]?.text ?? '')) && t.slice(dash + 1).filter((x) => x.text === ',').length >= 1 && t[dash + 1]?.pos !== 'VERB' && !t.slice(dash + 1).some((x) => x.text === '?');
  if (dash < 1 || (!WH.has(lower(t[dash + 1]?.text ?? '')) && !listed)) return null;
  const topic = secondPerson(t.slice(0, dash), true);
  // "Last report they approved": the one they approved, "the last report you approved", not "your last report you approved".
  const ownedBelow = topic.slice(1).some((x) => lower(x.text) === 'you');
  if (/^(?:last|first|current|previous|next|recent)$/i.test(topic[0].text) || OWN.test(topic[0].text)) topic.splice(0, 1, w(ownedBelow ? 'the' : 'your', ownedBelow ? 'DET' : 'PRON'), { ...topic[0], text: lowerFirst(topic[0].text), space: ' ' });
  let split = splitParts(t.slice(dash + 1));
  // "Background — role, team size": a list of things, not of clauses.
  if (split.length === 1 && !split[0].some((x) => x.pos === 'VERB' || x.pos === 'AUX' || WH.has(lower(x.text)))) {
    split = split[0].reduce<W[][]>((out, x) => (x.text === ',' ? [...out, []] : (out[out.length - 1].push(x), out)), [[]]).filter((part) => part.length);
  }
  const parts = split.map((part) => render(secondPerson(stripEnd(part), true)));
  if (OWN.test(parts[0]?.split(' ')[0] ?? '')) parts[0] = `your ${lowerFirst(parts[0])}`;
  const list = parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return [`Could you tell me about ${lowerFirst(render(topic))}: ${list}?`];
}

/** One sentence of a talk instruction as participant questions (none when it is guidance). */
function talkSentence(sentence: W[]): string[] {
  const raw = stripEnd(sentence);
  const last = sentence[sentence.length - 1];
  // "Probe on the last time … — what happened, did they get in?" is an instruction despite its mark.
  const instructs = (x: W[]) => {
    const lead = lower(x[0]?.text ?? '');
    const next = lower(x[1]?.text ?? '');
    return lead === 'ask' || (lead === 'find' && next === 'out') || (LEARN.has(lead) && (ABOUT.has(next) || WH.has(next) || YESNO.has(next) || personAt(x, 1).length > 0));
  };
  // "Started noticing alternatives?": a question noted without its subject, in the past.
  if (last?.text === '?' && raw.length >= 2 && raw[0].pos === 'VERB' && past(raw[0]) && !/ing$/i.test(raw[0].text) && !instructs(raw)) {
    return [`Did you ${render(secondPerson([{ ...raw[0], text: raw[0].lemma }, ...raw.slice(1)], false))}?`];
  }
  // "How do you know whether they've read it?": asked of "you" already, so "they" are other people, and the question is
  // left as written, never turned round (interviewerDirected lets a "they" after "you" through).
  if (last && last.text === '?' && !instructs(dropFiller(raw))) return [`${capitalise(render(raw.some((x) => /^(?:you|your)$/i.test(x.text)) && raw.some((x) => /^(?:they|them|their|they've|they're)$/i.test(x.text)) ? stripEnd(raw) : secondPerson(raw, false)))}?`];
  let t = dropFiller(raw);
  if (!t.length) return [];
  // "Without pointing at the pack, ask how …": the instruction starts after the opening phrase.
  const opened = t.findIndex((x, k) => k > 1 && k < 10 && t[k - 1].text === ',' && (x.lemma === 'ask' || LEARN.has(lower(x.text)) || (lower(x.text) === 'find' && lower(t[k + 1]?.text ?? '') === 'out')));
  if (opened > 0 && !t.slice(0, opened).some((x) => x.pos === 'VERB' && !/ing$/i.test(x.text))) t = t.slice(opened);
  const lead = lower(t[0].text);
  // "Which sites, and what made them switch." is a question written without its mark.
  if (WH.has(lead)) return questionsFromBody(t, 'ask');
  let i = 1;
  if (lead === 'ask' || (lead === 'find' && t[1] && lower(t[1].text) === 'out') || LEARN.has(lead)) {
    if (lead === 'find') i = 2;
    if ((lead === 'dig' || lead === 'look') && !(t[1] && ABOUT.has(lower(t[1].text)))) return [];
    const p = personAt(t, i);
    i += p.possessive ? 0 : p.length;
    // "Probe especially on X": the adverb says how to ask, not what.
    while (t[i] && t[i].pos === 'ADV' && !WH.has(lower(t[i].text))) i++;
    let body = t.slice(i);
    // "Probe on X" / "Dig into X": X is what to ask about ("what happened …" stays a wh-clause).
    if (lead !== 'ask' && body[0] && ABOUT.has(lower(body[0].text)) && body[1]) body = isClauseStart(body[1]) ? body.slice(1) : [w('about', 'ADP'), ...body.slice(1)];
    if (!body.length) return [];
    // "Ask them to describe how money works: who pays for what": the request, whose colon lists what it covers.
    if (lead === 'ask' && lower(body[0].text) === 'to') {
      const q = couldYou(body);
      return q ? [q] : [];
    }
    const topic = dashTopic(lower(body[0].text) === 'about' ? body.slice(1) : body);
    if (topic) return topic;
    return questionsFromBody(body, lead === 'ask' ? 'ask' : 'learn');
  }
  // "We want to know how …", "I'd like to understand why …"
  const know = t.findIndex((x, k) => k < 6 && ['know', 'understand', 'learn', 'hear'].includes(x.lemma) && t[k - 1] && lower(t[k - 1].text) === 'to');
  if (know > 0 && t.slice(0, know).some((x) => ['want', 'like', 'need', 'hope', 'love'].includes(x.lemma))) {
    return questionsFromBody(t.slice(know + 1), 'learn');
  }
  // "Let them tell the story" allows; it asks nothing.
  if (HAND.has(lead) && lead !== 'let') {
    const p = personAt(t, 1);
    if (p.length && !p.possessive) {
      const q = couldYou(t.slice(1 + p.length));
      return q ? [q] : [];
    }
  }
  if (TO_PARTICIPANT.has(t[0].lemma) && !t.some((x, k) => personAt(t, k).length > 0)) {
    return [`Could you ${render([{ ...t[0], text: lower(t[0].text) }, ...t.slice(1)])}?`];
  }
  // "Probe: anything they had to ask IT about": was there anything.
  if (lead === 'anything' && t.length > 2 && t.some((x) => x.pos === 'VERB' || x.pos === 'AUX')) {
    const then = t.some((x) => (x.pos === 'VERB' || x.pos === 'AUX') && past(x));
    return [`${then ? 'Was' : 'Is'} there ${render(secondPerson(stripEnd(t), false))}?`];
  }
  // A fragment ("Last no-show — what happened, …") has a topic, not an imperative or a subject, before its dash.
  if ((t[0].pos === 'VERB' && !ADVERBISH.has(lead)) || t[0].pos === 'PRON') return [];
  return dashTopic(t) ?? topicAlone(t);
}

/** "Typical week of workouts" on a line of its own: a topic to ask about, with nothing else said of it. */
function topicAlone(t: W[]): string[] {
  const words = stripEnd(t);
  const own = /^(?:typical|usual|normal|current|daily|weekly|last|first|own)$/i.test(words[0]?.text ?? '') || OWN.test(words[0]?.text ?? '');
  // A capital can make the tagger take the first word for a name ("Typical/PROPN week").
  const topical = /^(?:ADJ|NOUN|DET)$/.test(words[0]?.pos ?? '') || (own && words[0].pos === 'PROPN');
  if (words.length < 2 || words.length > 8 || !topical || words.some((x) => /^(?:VERB|AUX|PRON|PUNCT|SYM)$/.test(x.pos) || /^[:+&/=]$/.test(x.text))) return [];
  return [`Could you tell me about ${own ? 'your ' : ''}${lowerFirst(render(words))}?`];
}

const THINKING_ALOUD = /,?\s*(?:while\s+|and\s+)?(?:thinking|think|talking|talk)\s+(?:aloud|out loud)(?:\s+as\s+(?:they|you)\s+go)?/gi;
const AS_USUAL = /,?\s*as\s+(?:they|you|the participant)\s+(?:normally|usually)\s+(?:would|do|does)\b/gi;

/** Coaching for the interviewer that an observe instruction may start with. */
const COACHING = new Set(['observe', 'stop', 'end', 'note', 'notice', 'look', 'listen', 'record', 'log', 'capture', 'track', 'avoid', 'stay', 'keep', 'remain', 'prefer', 'remember', 'focus', 'mark', 'wait', 'help', 'intervene', 'nudge', 'probe', 'follow', 'skip', 'make', 'ensure', 'be', 'do', 'never', 'take', 'count', 'time', 'ask', 'let', 'allow', 'resist']);

/** Verbs that coach the interviewer ("Log hesitations") or name the task itself ("Log yesterday's workout"). */
const LOGGING = new Set(['log', 'record', 'track', 'mark', 'capture', 'count']);
/** What an interviewer logs, records or counts while watching. */
const OBSERVED = /^(?:hesitations?|errors?|mistakes?|issues?|problems?|workarounds?|confusion|time|timings?|times|how|what|where|when|whether|if|any|every|each|all|observations?|notes?|quotes?|struggles?|clicks?|taps?|back-?tracking|moments?|reactions?|comments?|questions?|pain|friction|success|completion|task|tasks|steps?|it|them|this|that|the|session|screen|call|audio|video|everything|anything|where|whatever|down|key|first|their|his|her)$/i;
const productAction = (t: W[]) => LOGGING.has(t[0].lemma) && !!t[1] && !OBSERVED.test(t[1].text) && t[1].pos !== 'PUNCT';

/**
 * After "Have them", "Watch them" the next word is a verb in its bare form, whatever the small
 * tagger says ("Have them book/NOUN a class", "Have them open/ADJ locker 14").
 */
function bareVerbFirst(rest: W[]): W[] {
  const [first] = rest;
  if (!first || !/^(?:NOUN|ADJ)$/.test(first.pos) || !/^[a-z]+$/i.test(first.text)) return rest;
  return [{ ...first, pos: 'VERB', lemma: lower(first.text) }, ...rest.slice(1)];
}

/** The task of an observe instruction as "pay an invoice" (base form, second person), or null. */
/** How many words a label takes that opens `t`, one of `labels` ("Task:", "Task 1:", "TASK —"), or 0. */
/** "Task 2:", "Task B —", "Task iii:": a label with its number or letter. */
const labelLength = (t: W[], labels: RegExp) =>
  !labels.test(t[0]?.text ?? '') ? 0 : LABEL_END.test(t[1]?.text ?? '') ? 2 : (t[1]?.pos === 'NUM' || /^(?:[A-Za-z]|[ivx]{2,4}|\d{1,2}[a-z])$/.test(t[1]?.text ?? '')) && LABEL_END.test(t[2]?.text ?? '') ? 3 : 0;
/** What ends a label: "Task:", "TASK —", "Task 2 -". */
const LABEL_END = /^(?::|—|–|-)$/;

function observeTask(sentence: W[]): { task: string; show: boolean } | null {
  let t = dropFiller(stripEnd(sentence));
  // "Task: download last year's statement", "Task 1: find last month's statement": the label is not part of the task.
  const labelEnd = labelLength(t, /^(?:task|scenario|activity|exercise|observe|watch)$/i);
  const labelled = labelEnd > 0;
  if (labelled) t = t.slice(labelEnd);
  const doer = personAt(t, 0);
  // "Observe: they cancel the appointment": the participant does the task.
  if (doer.length === 1 && !doer.possessive && t[1] && /^(?:VERB|NOUN|ADJ)$/.test(t[1].pos)) t = [w('have', 'AUX'), ...t];
  // After a label the task starts on its verb, whatever the tagger says ("Task: schedule/NOUN the dishwasher").
  else if (labelled) t = bareVerbFirst(t);
  // "Don't help unless stuck" is guidance; a "no" inside the task ("set 'no substitution'") is not.
  if (!t.length || /^(?:never|no|not)$/i.test(t[0].text) || (/^do$/i.test(t[0].text) && /^(?:n't|not)$/i.test(t[1]?.text ?? ''))) return null;
  const lead = t[0].lemma;
  let rest: W[] | null = null;
  // "Have them export …" hands the task to the participant; "Get it syncing again" is the task itself.
  const handsOver = lead === 'ask' || lead === 'see' || HAND.has(lead);
  const p = personAt(t, 1);
  if (handsOver && p.length && !p.possessive) {
    rest = bareVerbFirst(secondPerson(t.slice(1 + p.length), true, false, true));
  } else if (
    (!handsOver || lead === 'get') &&
    (!COACHING.has(lead) || productAction(t)) &&
    (t[0].pos === 'VERB' || productAction(t) || (t[0].pos === 'PROPN' && t.some((x) => /^(?:you|your)$/i.test(x.text)))) &&
    !t.some((x, k) => personAt(t, k).length > 0)
  ) {
    rest = t; // already said to the participant: "Export last month's report."
  }
  if (!rest) return null;
  if (rest[0] && lower(rest[0].text) === 'to') rest = rest.slice(1);
  const verb = rest[0];
  if (!verb || !(verb.pos === 'VERB' || verb.pos === 'PROPN' || verb.pos === 'AUX')) return null;
  const words = [{ ...verb, text: lower(verb.lemma) }, ...rest.slice(1)];
  // Context for the interviewer after a dash is not part of what the participant hears (brackets went in readable()).
  const dash = words.findIndex((x) => /^[—–;]$/.test(x.text));
  let task = render(dash < 0 ? words : words.slice(0, dash)).replace(THINKING_ALOUD, '').replace(AS_USUAL, '').replace(/[\s,]+$/, '');
  let show = false;
  const m = /^(?:show|demonstrate)\s+(?:me\s+|us\s+)?(.*)$/i.exec(task);
  if (m) {
    task = m[1];
    show = true;
  } else if (/^try\s+to\s+/i.test(task)) {
    task = task.replace(/^try\s+to\s+/i, '');
  }
  return task ? { task, show } : null;
}

/** A capital that only starts the sentence, lowered ("Invoices" → "invoices"; "PDF" stays). */
export const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

/** A switch interview's phases, as guides name their parts. */
const SWITCH_PHASES = String.raw`(?:1st|first) thoughts?|passive looking|active looking|deciding|consuming|satisfaction`;
const SWITCH_PHASE_TITLE = new RegExp(String.raw`^\s*(?:${SWITCH_PHASES})\s*$`, 'i');
/** A section's name before what is said in it: "Closing:", "Wrap-up -", "Passive looking:", "Close with:". */
const SECTION_LABEL = new RegExp(
  String.raw`(^|\n)[ \t]*(?:wrap[- ]?up|closing|close|intro(?:duction)?|warm[- ]?up|outro|debrief|opening|final questions?|${SWITCH_PHASES}|(?:close|end|finish|wrap up|open|start) with)[ \t]*(?::|[ \t][-–—])[ \t]+`,
  'gi',
);

/**
 * A segment title as the participant may hear it ("How they book today" → "how you book today",
 * "Role & context" → "role and context"), or null when it still reads as written for the team.
 */
export function titleForParticipant(title: string): string | null {
  // "Task 2 — SEQ", "Part 3: export": the guide's numbering and its shorthand, no topic to tell; nor a switch interview's phases.
  if (/^\s*(?:task|part|section|step|activity|exercise|block|module|q)\s*\d/i.test(title)) return null;
  if (SWITCH_PHASE_TITLE.test(title)) return null;
  // "What next", "Why now": a heading, not a topic to say "This part is about …" of.
  if (/^\s*(?:what|which|why|how|when|where|who)\s+\S+\s*[?.!]?\s*$/i.test(title)) return null;
  // "4. Rating", "2.1 Background": the outline's number is not part of the topic.
  const t = wordsOf(title.replace(/^\s*\d{1,2}(?:\.\d{1,2})*\.?\s+/, '').replace(/\s&\s/g, ' and '));
  const converted = lowerFirst(render(secondPerson(stripEnd(t), false)).trim());
  return converted && !interviewerDirected(converted) && !/[[\]():;/]|\bg-\d/i.test(converted) ? converted : null;
}

/** "Intro (2 min)", "Wrap-up – 5 mins": the time a part is given is the team's. */
const TIME_BOX = /\s*(?:[-–—:]\s*)?[([]?\s*~?\s*\d{1,2}(?:\s*[-–]\s*\d{1,2})?\s*(?:min|mins|minutes|m)\.?\s*[)\]]?\s*$/i;

function genericTalk(title: string): string {
  const named = title.replace(TIME_BOX, '').trim();
  // A part named only for its place in the guide has no topic of its own to ask about.
  if (/^(?:intro(?:duction)?|warm[- ]?up|welcome|opening|background|context)$/i.test(named)) return 'Could you tell me a little about yourself and how you use the product?';
  if (/^(?:wrap[- ]?up|closing|close|outro|debrief|final questions?|end)$/i.test(named)) return 'Is there anything else you would like to tell us?';
  const t = wordsOf(named);
  const converted = render(secondPerson(stripEnd(t), false)).trim();
  if (!converted) return 'Could you tell me about your experience with the product?';
  if (WH.has(lower(t[0]?.text ?? '')) || ['is', 'are', 'do', 'does', 'did', 'can', 'could', 'would', 'will', 'have', 'has'].includes(lower(t[0]?.text ?? ''))) return `${capitalise(converted)}?`;
  return `Could you tell me about ${lowerFirst(converted)}?`;
}

/**
 * The task as asked. A list at its end ("sort these features: offline mode, calendar sync, dark mode") gets its
 * "and", and thinking aloud comes before it, so it does not read as the list's last item.
 */
function taskQuestion({ task, show }: { task: string; show: boolean }): string {
  const how = show ? '' : 'how you would ';
  if (!/:[^:,]+(?:,[^:,]+){2,}$/.test(task)) return `Could you show me ${how}${task}, thinking aloud as you go?`;
  const listed = /,\s*(?:and|or)\s+[^,]+$/i.test(task) ? task : task.replace(/,\s*([^,]+)$/, ' and $1');
  return `Could you show me, thinking aloud as you go, ${how}${listed}?`;
}

function genericObserve(title: string): string {
  // A title that names the task ("Task: submit a receipt") gives it in the participant's words, not quoted as the team wrote it.
  const words = wordsOf(title);
  const task = labelLength(words, /^(?:task|scenario|activity|exercise)$/i) > 0 ? observeTask(words) : null;
  if (task) return taskQuestion(task);
  return `For this part, "${title.trim()}", could you use the product as you normally would, thinking aloud as you go?`;
}

/** Quoted questions ("…?") in an instruction, in order, and the text around them. */
function quotedParts(text: string): Array<{ quote: string } | { text: string }> {
  const out: Array<{ quote: string } | { text: string }> = [];
  // A quoted question, or after "Ask:" a quoted request to the participant ("Tell me about the last time you claimed.").
  const re = /(\b(?:ask|say)\s*:\s*)?["“]([^"”]{2,400}?)([?.!]?)\s*["”]/gi;
  let at = 0;
  for (const m of text.matchAll(re)) {
    const [, asked, said, end] = m;
    const request = asked && end !== '?' && TO_PARTICIPANT.has(lower(said.split(/\s+/)[0] ?? ''));
    if (end !== '?' && !request) continue;
    out.push({ text: text.slice(at, m.index) });
    // '"Tell me about the last time you set up checkout. What happened first?"': a request and a question, each asked.
    const pieces = `${said.trim()}${end}`.split(/(?<=[.!?])\s+(?=[A-Z])/);
    if (pieces.length > 1) {
      let lead = '';
      for (const piece of pieces) {
        if (piece.endsWith('?')) {
          out.push({ quote: `${lead}${piece}` });
          lead = '';
        } else if (TO_PARTICIPANT.has(lower(piece.split(/\s+/)[0] ?? ''))) out.push({ quote: `Could you ${lowerFirst(piece.replace(/[.!]+$/, ''))}?` });
        else lead += `${piece} `;
      }
    } else out.push({ quote: request ? `Could you ${lowerFirst(said.trim())}?` : `${said.trim()}?` });
    at = m.index + m[0].length;
  }
  out.push({ text: text.slice(at) });
  return out;
}

/** Unquoted "Ask: What did you do next?" */
const ASK_COLON = /^\s*(?:then\s+)?(?:ask|probe|follow[- ]?up)\s*:\s*/i;

/** "We want to understand their role before diving in.": the aim of the part, asked only when nothing else is. */
const AIM = /^(?:so,?\s+)?(?:we|i)\s+(?:(?:really\s+)?want|'d like|would like|need|hope)\s+to\s+(?:know|understand|learn|hear)\b/i;
/** "If they mention the receptionist, probe on …": a branch the interviewer takes or not; asked only when nothing else is. */
const BRANCH = /^(?:if|when|unless)\b[^,:]{3,80}[,:]\s*(?:then\s+)?(?:ask|probe|dig|explore|follow up|find out)\b|^if \d{1,2}\s*(?:–|-|to)\s*\d{1,2}\s*[,:—–]|^if (?:yes|no|so|not|they (?:do|did|have|are|say (?:yes|no)))\s*[,:—–-]/i;
/** "We've heard from other patients that reminders come too late.": what "Does that match …?" refers to. */
const HEARD = /^(?:we've|we have|we|i've|i have)\s+heard\s+(?:from\s+[^,]+?\s+)?that\s+(.+?)[.!]?$/i;

function talkQuestions(instruction: string, branches: Branch[] = [], unasked: string[] = []): string[] {
  const out: string[] = [];
  // Where a topic said alone ("Typical week of workouts") was asked: dropped again if it heads questions about it.
  const topics = new Set<number>();
  const aims: string[] = [];
  let heard: string | null = null;
  for (const part of quotedParts(instruction)) {
    if ('quote' in part) {
      // Written to the participant already ("…how did you add them?"): "them" is a thing, not the participant.
      const toYou = /\byour?\b/i.test(part.quote);
      out.push(capitalise(render(secondPerson(wordsOf(part.quote), false, false, toYou)).replace(/\s*\?$/, '') + '?'));
      continue;
    }
    for (const s of parse(part.text)) {
      const words = toWords(s.tokens);
      const colon = ASK_COLON.exec(s.text);
      if (colon && s.text.trim().endsWith('?')) {
        const after = wordsOf(s.text.slice(colon[0].length));
        out.push(...talkSentence(after));
        continue;
      }
      const told = HEARD.exec(s.text.trim());
      if (told) {
        heard = render(secondPerson(wordsOf(told[1]), false));
        continue;
      }
      const branch = out.length && BRANCH.test(s.text.trim()) ? branchOf(s.text.trim()) : null;
      if (branch) {
        branches.push({ ...branch, after: out.length - 1 });
        continue;
      }
      const asked = talkSentence(words);
      if (!asked.length && words.filter((x) => x.pos !== 'PUNCT').length >= 2) unasked.push(s.text.trim());
      if (asked.length === 1 && asked[0] === topicAlone(stripEnd(dropFiller(words)))[0]) topics.add(out.length);
      if (AIM.test(s.text.trim()) || BRANCH.test(s.text.trim())) aims.push(...asked);
      else if (heard && /^(?:does|is|was|did|has)\s+(?:that|this)\b/i.test(asked[0] ?? '')) out.push(`We've heard that ${heard}. ${asked[0]}`, ...asked.slice(1));
      else out.push(...asked);
      if (asked.length) heard = null;
    }
  }
  // "Role and team" above "What's your role?": a heading of the questions under it, not a question of its own.
  if (topics.size) {
    const said = (q: string): string[] => q.toLowerCase().match(/[a-z]{4,}/g) ?? [];
    const heading = (k: number) => topics.has(k) && said(out[k].replace(/^Could you tell me about (?:your )?/, '')).some((x) => out.slice(k + 1).some((q) => said(q).includes(x)));
    for (let k = out.length - 1; k >= 0; k--) {
      if (!heading(k)) continue;
      out.splice(k, 1);
      for (const b of branches) if (b.after > k) b.after--;
    }
  }
  // "Same SEQ question (1–7) for task 2": the Single Ease Question, usability testing's standard rating after a task.
  if (/\b(?:SEQ|single ease question)\b/i.test(instruction) && !out.some((q) => /\b1\s*(?:-|–|to)\s*7\b/.test(q))) {
    out.unshift(SEQ);
    for (const b of branches) b.after++;
  }
  // "Why?" first has no answer before it to ask why about.
  if (out.length > 1 && /^why\?$/i.test(out[0]) && !branches.some((b) => b.after === 0)) {
    out.shift();
    for (const b of branches) b.after--;
  }
  // "Finally, find out whether that moment changed …" leans on the moment the aim asks for: the aim comes first.
  if (aims.length && /\bthat (?:moment|time|experience|surprise|one)\b/i.test(out[0] ?? '')) return [...aims, ...out];
  return out.length ? out : aims;
}
const SEQ = 'On a scale of 1 to 7, where 1 is very difficult and 7 is very easy, how easy or difficult was that task?';

/** "Scenario: there's a £42.99 charge … that they don't recognise.": what the participant needs to know for the task, said to them. */
function scenarioOf(words: W[]): string | null {
  if (!/^scenario$/i.test(words[0]?.text ?? '') || words[1]?.text !== ':') return null;
  const said = render(secondPerson(stripEnd(words.slice(2)), false)).trim();
  return said && !interviewerDirected(said) ? `${capitalise(said)}. ` : null;
}

/** "Your 'Harbor Credit Union' account shows 'Sync paused'.": the task's situation, already said to the participant. */
function situationOf(words: W[]): string | null {
  const t = words.slice(labelLength(words, /^(?:task|activity|exercise)$/i));
  if (!/^(?:your|you)$/i.test(t[0]?.text ?? '') || t[t.length - 1]?.text === '?' || !t.some((x) => x.pos === 'VERB' || x.pos === 'AUX')) return null;
  const said = render(t).trim().replace(/[.!]+$/, '');
  return said && !interviewerDirected(said) ? `${capitalise(said)}. ` : null;
}

/** 'If they ask, say: "What would you do if I weren't here?"': the guide's own answer to a question during the task. */
export function guideReply(instruction: string): string | null {
  const m = /\bif (?:they|the participant) (?:ask|asks|ask for help|asks for help|are stuck|get stuck|gets stuck)\b[^"“\n]{0,40}?,?\s*(?:say|tell them|reply|answer|respond(?: with)?)\s*:?\s*["“]([^"”]{3,200}?)["”]/i.exec(instruction);
  return m ? capitalise(m[1].trim()) : null;
}

/**
 * A task quoted for the participant to read ('TASK 1: "Please find how much revenue grew last month."'), asked in
 * its own words; a reply the moderator keeps for a question ('If they ask, say: "What would you do if I weren't here?"') is not it.
 */
function quotedTask(instruction: string): string | null {
  for (const m of instruction.matchAll(/["“]([^"”]{8,400}?)([.!?]?)\s*["”]/g)) {
    const before = instruction.slice(Math.max(0, m.index - 60), m.index);
    if (/\b(?:if|when|unless)\b[^"“.]*\b(?:say|tell them|answer|reply|respond|prompt)\b[^"“.]*$/i.test(before)) continue;
    // '"Imagine you've just signed up. Please create a project…"': the scenario is said as written, the last sentence asked.
    const sentences = m[1].trim().split(/(?<=[.!?])\s+(?=[A-Z])/);
    const scenario = sentences.length > 1 ? `${sentences.slice(0, -1).join(' ').replace(/([^.!?])$/, '$1.')} ` : '';
    const said = sentences.at(-1)!.replace(/^(?:please|now|next|first|ok(?:ay)?|so),?\s+/i, '');
    if (m[2] === '?') return `${scenario}${capitalise(`${said}?`)}`;
    // Read after "you", so the tagger takes "export" or "book" for the verb it is here.
    const first = toWords(parse(`you ${lowerFirst(said)}`)[0]?.tokens ?? [])[1];
    if (!first || first.pos !== 'VERB' || lower(first.text) !== first.lemma) continue;
    // Asked, as every task is: "Could you find how much revenue grew last month…?"
    return `${scenario}Could you ${lowerFirst(said).replace(/[.!]+$/, '')}?`;
  }
  return null;
}

function observeQuestions(instruction: string): string[] {
  const task = quotedTask(instruction);
  if (task) return [task];
  const parts = quotedParts(instruction).filter((part, k, all) => !('quote' in part) || !/\b(?:if|when|unless)\b[^.]*$/i.test((all[k - 1] as { text?: string })?.text ?? ''));
  // The scenario may come before or after the task's own line ("Task 2: dispute a charge. Scenario: …").
  let scenario = parts.flatMap((part) => ('quote' in part ? [] : parse(part.text).map((s) => scenarioOf(toWords(s.tokens))))).find((x) => x) ?? '';
  for (const part of parts) {
    if ('quote' in part) return [`${scenario}${capitalise(part.quote)}`];
    for (const s of parse(part.text)) {
      const words = toWords(s.tokens);
      const situation = scenario ? null : situationOf(words);
      if (situation) {
        scenario = situation;
        continue;
      }
      if (words[words.length - 1]?.text === '?' && !words.some((x, k) => personAt(words, k).length > 0)) return [`${scenario}${capitalise(render(stripEnd(words)))}?`];
      const task = observeTask(words);
      if (task) return [`${scenario}${taskQuestion(task)}`];
    }
  }
  return [];
}

const MAX_QUESTION = 300;
/** 'Read aloud: "…"', 'Say: …' on a line of its own: the words written for the participant, then the line they lead to. */
const READ_ALOUD = /(^|\n)[ \t]*(?:[-•*][ \t]+)?(?:read(?: aloud| out)?|say|tell them|show and read)[ \t]*:[ \t]*(?:["“]([^"”\n]{10,600}[^"”\n?])["”]|(?!["“])([^\n]{10,600}[^\n?\s"”]))[ \t]*\n([ \t]*(?:[-•*◦]|\d{1,2}[.)])?[ \t]*)/i;
/** Where the reading goes: a placeholder word the parser keeps with the question after it. */
const READ = 'Zqxread';

/** What in brackets the participant needs for a task: a path, a file, an address, a name or code to use, an amount ("(£84)"). */
const NEEDED = /\w[/\\]\w|\w\.(?:csv|pdf|xlsx?|txt|png|jpe?g|docx?|zip|ofx|qif)\b|@\w|\b(?:name|use|password|code|email|login|pin)\s*:|^\s*[£$€]\s?\d[\d,.]*\s*$/i;
/** A placeholder word the parser reads as a name; KEPT + "a", "b", … stand for kept brackets in order. */
const KEPT = 'Zqxkept';
/** Holds `text` out of the parse: the placeholder word that `questionPlan` puts it back for ("Zqxkepta", "Zqxkeptb", …). */
const keep = (kept: string[], text: string) => `${KEPT}${String.fromCharCode(97 + kept.push(text) - 1)}`;
/** What opens a line that says what to ask or do ("Ask about…", "Probe:", "Have them…"), never an outline's heading. */
const SAYS_WHAT_TO_DO = String.raw`(?:ask|probe|find|learn|explore|show|have|let|get|watch|observe|check|discuss|cover|review|see|go)\b`;

/** Shorthand of discussion guides, spelled out before parsing ("w/" would read as "w /"). */
const SHORTHAND: Array<[RegExp, string | ((...m: string[]) => string)]> = [
  [/\bw\/o\b/gi, 'without'],
  [/\bw\/(?=\s|\w)/gi, 'with '],
  [/\besp\.(?=\s)/gi, 'especially'],
  [/\bvs\.(?=\s)/gi, 'versus'],
  [/\bi\.e\.,?/gi, 'that is'],
  [/\bb\/c\b/gi, 'because'],
  [/\bre:\s*/gi, 'about '],
  [/,?\s*\betc\.?(?=[\s,.;:)]|$)/gi, ''],
  [/\bwhy\s*\/\s*why not\b/gi, 'why or why not'],
  [/\bmgmt\b/gi, 'management'],
  [/\bincl\.?(?=\s)/gi, 'including'],
  [/\brecs\b/gi, 'recommendations'],
  [/\bappts\b/gi, 'appointments'],
  [/\bappt\b/gi, 'appointment'],
  [/\bacct\b/gi, 'account'],
  [/\bmgr\b/gi, 'manager'],
  [/\bdept\b/gi, 'department'],
  [/\bhrs\b/gi, 'hours'],
  [/\bmins\b/gi, 'minutes'],
  [/\bthru\b/gi, 'through'],
  [/\b1st\b/gi, 'first'],
  [/\bwks?\b(?!\s*\d)/gi, (w: string) => (w.toLowerCase() === 'wk' ? 'week' : 'weeks')],
  // "Who else involved?": who else was.
  [/\bwho else (involved|there|affected|in the room)\b/gi, 'who else was $1'],
  [/\btil\b/gi, 'until'],
  [/\s&\s/g, ' and '],
  // Fragments of a guide written as notes: "How long using Peoplely?", "Magic wand: one change to the checklist?".
  [/\bhow long (using|working|doing|running|living|selling|managing)\b(?=[^?\n.]{0,60}\?)/gi, 'how long have you been $1'],
  // "How long subscribed?", "How long a member?": been so.
  [/\bhow long (subscribed|registered|signed up|a (?:member|customer|subscriber|user)|with us|on (?:the|this) (?:plan|app|platform))(?=[^?\n.]{0,40}\?)/gi, 'how long have you been $1'],
  [/\bmagic wand\s*[:,–—-]?\s*(?:one|1|a single) (?:change|thing) (?:to|in|about|for) ([^?\n]{2,80})\?/gi, 'If you could change one thing about $1, what would it be?'],
  // "how - SMS, email, app notification?": the choices said after the question word.
  [/\b(how|which|what)[ \t]+[-–—][ \t]+([^?\n\-–—,]{1,60}(?:,[^?\n\-–—,]{1,60})+)\?/gi, (_: string, wh: string, list: string) => `${wh}: ${list.trim().replace(/,\s*([^,]+)$/, ' or $1')}?`],
  // "Start by asking them to walk you through …", "Finish by having them describe …": the request itself.
  [/\b(?:start|begin|finish|end|close|wrap up) by (asking|having|getting)\b/gi, (_: string, how: string) => ({ asking: 'ask', having: 'have', getting: 'get' })[how.toLowerCase()] ?? how],
  // "…, and make sure you get a sense of how many tools they manage": a question of its own.
  [/,?\s*and (?:make sure (?:you|to) )?(?:get a sense of|find out|understand|learn)\s+(?=(?:how|what|why|when|where|which|who|whether)\b)/gi, '. Ask '],
  // Notes for a question: "Pain points??", "1 thing to change", "Last time used?".
  [/(^|\n|[.?!]\s+)(?:[-•*]\s+)?(?:any\s+)?pain points\s*\?+/gi, '$1What, if anything, gets in your way?'],
  // "Ever stopped logging → why": asked as the guide would ask it.
  [/(^|\n|[.?!]\s+)(?:[-•*]\s+)?ever ((?:stopped|used|tried|switched|cancel+ed|paused|considered|thought about|lost|missed|forgot|deleted|recommended)\b[^.?!\n]{0,80})[.?]?/gi, '$1Have you ever $2?'],
  [/([.?!]\s+)why\s*[.?]/g, '$1Why?'],
  [/(^|\n|[.?!]\s+)(?:[-•*]\s+)?(?:1|one) thing (?:to|you'?d|you would) change\b[ \t]*\??/gi, '$1If you could change one thing, what would it be?'],
  [/(^|\n|[.?!]\s+)(?:[-•*]\s+)?last time (used|opened|logged in|visited|bought|ordered|booked)(?: (?:it|the app|the product))?\s*\?/gi, (_: string, start: string, verb: string) => `${start}When did you last ${({ used: 'use', opened: 'open', 'logged in': 'log in to', visited: 'visit', bought: 'buy from', ordered: 'order from', booked: 'book with' } as Record<string, string>)[verb.toLowerCase()] ?? verb} it?`],
  // "…, so once they have told the story, ask how typical that was": a question of its own.
  [/,\s*(?:so\s+|and\s+)?(?:once|after|when) (?:they|the participant)(?:'ve| have)? [^,.;?]{3,60},\s*ask\b/gi, '. Then ask'],
  [/\b(did|does|do|is|was|are|were|have|has|could|would|should|can|wo)nt\b/gi, "$1n't"],
];

/** Words that open a question ("Why?", "Any problems?", "Was the timing useful?"), not a note of what to listen for. */
const ASKS = /^(?:what|how|why|when|where|which|who|whom|whose|any|anything|is|are|was|were|do|does|did|have|has|had|can|could|would|will|should|and|then|for|or|so)\b/i;

/**
 * "what did you do instead? waitlist? called the clinic?": after a question, two or more runs of a
 * few words with a question mark that are not questions are the answers the interviewer listens for.
 * One alone ("How did you pay? Card or cash?") is a question of its own.
 */
function withoutProbeWords(line: string): string {
  const pieces = line.split(/(?<=\?)[ \t]+/);
  const listened = (k: number) => k > 0 && k < pieces.length && pieces[k].endsWith('?') && !ASKS.test(pieces[k].trim()) && pieces[k].trim().split(/\s+/).length <= 4;
  const run = (k: number) => listened(k) && (listened(k - 1) || listened(k + 1));
  return pieces.filter((_, k) => !run(k)).join(' ');
}

/**
 * An instruction as the parser should read it: brackets (context for the interviewer) out,
 * shorthand spelled out, and numbered or bulleted items as sentences of their own.
 */
/**
 * A guide pasted from Notion or another markdown editor, as plain text: a heading is a section's name (unless it
 * asks something), a checkbox is a bullet, bold and quote marks go, and so do emoji.
 */
function fromMarkdown(text: string): string {
  return text
    .replace(/(^|\n)[ \t]*#{1,6}[ \t]+([^\n]*)/g, (_, start: string, heading: string) => (/\?\s*$/.test(heading) ? `${start}${heading}` : start))
    .replace(/(^|\n)([ \t]*)(?:[-*+][ \t]+)?\[[ xX]?\][ \t]+/g, '$1$2- ')
    .replace(/(^|\n)[ \t]*>[ \t]?/g, '$1')
    .replace(/\*\*|__/g, '')
    .replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu, '')
    .replace(/[ \t]+(?=\n|$)/g, '');
}

function readable(instruction: string, kept: string[]): string {
  // "Q2 Which step took longest?": the number is the guide's, not a word of the question.
  // "◦", "▪", "•" and the like are bullets as "-" is.
  // 'Scenario: "You're going on holiday…"': written for the participant, so held out of the parse and said as written.
  let text = instruction.replace(/(^|\n)([ \t]*)scenario[ \t]*:[ \t]*["“]([^"”\n]{8,400}?)[.!]?["”][ \t]*\.?/gi, (all, start: string, lead: string, said: string) =>
    kept.length < 26 ? `${start}${lead}Scenario: ${keep(kept, said.trim())}` : all,
  );
  text = text.replace(/(^|\n)([ \t]*)[◦▪‣○·•*][ \t]+/g, '$1$2- ');
  text = text.replace(/(^|\n)([ \t]*)(?:[-•*][ \t]+)?[Qq]\d{1,2}(?:[.:)][ \t]*|[ \t]+(?=[A-Z]))/g, '$1$2- ');
  // "2.2 Sharing", "1. Intro (5 mins)": an outline's headings, not something to ask or do.
  text = text
    .replace(new RegExp(String.raw`(^|\n)[ \t]*\d{1,2}(?:\.\d{1,2})+\.?[ \t]+(?!${SAYS_WHAT_TO_DO})[^\n?]{1,40}(?=\n|$)`, 'gi'), (line, start: string) => (line.trim().split(/\s+/).length <= 5 ? start : line))
    .replace(new RegExp(String.raw`(^|\n)[ \t]*(?!(?:\d{1,2}[.)][ \t]+)?(?:[-•*][ \t]+)?${SAYS_WHAT_TO_DO})(?:\d{1,2}[.)][ \t]+)?(?:[-•*][ \t]+)?((?:[^\s?(]+[ \t]+){0,4}[^\s?(]+)[ \t]*\(\s*(?:~\s*)?\d{1,2}(?:\s*[-–]\s*\d{1,2})?\s*(?:min|mins|minutes|m)\s*\)[ \t]*(?=\n|$)`, 'gi'), '$1');
  // "- (if no) what did you do instead?": a branch on the answer to the question before it.
  // "- (if they mention Slack) ask whether …": a branch on the answer before, as its own sentence.
  text = text.replace(/(^|\n)[ \t]*(?:[-•*][ \t]+)?\(((?:if|when) [^()\n]{1,80})\)[ \t,:]*/gi, '$1- $2, ');
  text = text.split('\n').map(withoutProbeWords).join('\n');
  // "(if they say a google sheet, ask who keeps it up to date)": a branch of its own, after the sentence it hangs on.
  text = text.replace(/\s*\(((?:if|when)\b[^()]{3,80}[,:]\s*(?:then\s+)?(?:ask|probe|dig|explore|follow up|find out)\b[^()]*)\)\s*[.?!]?/gi, (_, inside: string) => `. ${capitalise(inside.trim())}.`);
  // "Probe on fairness if it comes up": a branch on its being mentioned.
  text = text.replace(
    /(^|\n|[.?!]\s+)(?:[-•*]\s+)?(?:(?:and|then)\s+)?(?:probe|ask|dig|explore)(?:\s+(?:on|about|into))?\s+([^.?!\n,]{2,40}?),?\s+(?:if|when)\s+(?:it|that|this|they)\s+(?:comes?\s+up|(?:is|are)\s+mentioned|brings?\s+it\s+up|mentions?\s+(?:it|that|this))\b[.!]?/gi,
    (_, start: string, topic: string) => `${start}If they mention ${topic}, ask about ${topic}.`,
  );
  // "Wrap up: ask if …", "Close: thank them and ask …": a section's label before what to do, and thanks, which the closing says.
  text = text
    .replace(/(^|\n)[ \t]*(?!(?:ask|probe|prompt|follow[- ]?ups?|task|activity|exercise|scenario|q\d*|notes?|nb|context|timing|(?:listen|look|watch) for)\s*:)[A-Za-z][\w'-]*(?:[ \t]+[\w'-]+){0,2}[ \t]*:[ \t]*(?=(?:ask|find out|probe|explore|thank|check|learn|understand|dig|get|have|let)\b)/gi, '$1')
    // "Closing: anything we didn't ask?", "Wrap-up - anything else?": a section's name; a topic ("Q4 planning: how…?") stays.
    // So are a switch interview's phases ("1st thought —", "Passive looking:").
    .replace(SECTION_LABEL, '$1')
    // "Debrief:" on a line of its own: the name of what follows.
    .replace(/(^|\n)[ \t]*[A-Z][\w'-]*(?:[ \t]+[\w'-]+){0,2}[ \t]*:[ \t]*(?=\n)/g, '$1')
    // "Post-task rating: On a scale…?", "Debrief: Overall, what…?": a label before a question written out in full.
    .replace(/(^|\n|[.?!][ \t]+)([ \t]*(?:[-•*][ \t]+)?)(?!(?:task|scenario|activity|exercise)\b)[A-Z][\w'-]*(?:[ \t]+[\w'-]+){0,2}[ \t]*:[ \t]+(?=[A-Z][^\n?:]{3,200}\?)/g, '$1$2')
    .replace(/\bthank (?:them|the participant)(?: for [^.?!,]*)?\s+and\s+/gi, '')
    .replace(/,?\s*(?:and\s+)?thank (?:them|the participant)(?: for [^.?!,]*)?(?=[.?!]|$)/gim, '');
  // "How easy was that? (1 = very difficult, 5 = very easy)": what the ends of the scale mean is said with it.
  text = text.replace(/([^.?!\n]*)\?[ \t]*\(((?:[^()]*?\b\d{1,2}\s*=\s*[^(),]+,?\s*){2,})\)/g, (_, question: string, anchors: string) => {
    const ends = [...anchors.matchAll(/\b(\d{1,2})\s*=\s*([^,()]+)/g)].map(([, n, means]) => `${n} is ${means.trim()}`);
    const where = `where ${ends.slice(0, -1).join(', ')} and ${ends.at(-1)}`;
    const scale = /on a scale (?:of|from) \d{1,2}\s*(?:-|–|to)\s*\d{1,2}/i.exec(question);
    return scale ? `${question.replace(scale[0], `${scale[0]}, ${where}`)}?` : `${question}, ${where}?`;
  });
  // A condition in brackets is for the participant too ("(if they have one)"); other brackets are context.
  text = text
    .replace(/\s*\(((?:if|when|unless)\b[^()]*)\)/gi, ', $1,')
    // A file, address or name the participant needs for the task stays ("(Downloads/march.csv)", "(name: Priya)"):
    // held out of the parse as one placeholder word and put back in the question (see KEPT).
    .replace(/\s*\(([^()]*)\)/g, (all, inside: string) => (!/^\s*(?:e\.g|i\.e)\b/i.test(inside) && NEEDED.test(inside) && kept.length < 26 ? ` ${keep(kept, all.trim())}` : ''))
    // "[probe: which days did they skip an entry, and why?]": a question the guide wants asked.
    .replace(/\s*\[\s*(?:probe|ask|follow[- ]?up)\s*:\s*([^[\]]*\?)\s*\]/gi, '. $1')
    // Other square brackets hold notes and branches for the interviewer ("[If they've never had one, ask about …]").
    .replace(/\s*\[[^[\]]*\]/g, '');
  // "Probe:", "Follow-up:" label a question; "Listen for:", "NB:", "Note:" a note, which goes whole.
  text = text
    // "Observe: do they find "Pause my digests"…?": what to watch for, a question about them, not the task.
    .replace(/(^|\n|[.?!]\s+)\s*(?:[-•*]\s+)?(?:observe|watch|look)\s*:\s*(?=(?:do|does|did|will|can|whether|if|how|which|where|what|when|who)\b)[^\n?.!]*[?.!]?/gi, '$1')
    // "Watch: finds + button? picks type?": notes of what to watch for, each with its "?", not the task or a question.
    // (Case matters here: a capital starts a question of the guide's own.)
    .replace(/(^|\n|[.?!]\s+)\s*(?:[-•*]\s+)?(?:[Oo]bserve|[Ww]atch|[Ll]ook|OBSERVE|WATCH|LOOK)\s*:\s*[^\n?.!]{1,80}\?(?:[ \t]+[^\n?.!A-Z][^\n?.!]{0,60}\?)*/g, '$1')
    // "Mod note – don't mention the Team tier": a note however it is labelled, and with a dash as well as a colon.
    .replace(/(^|\n|[.?!]\s+)\s*(?:[-•*]\s+)?(?:(?:mod(?:erator)?|interviewer|researcher|facilitator|internal)'?s?\s+)?(?:listen for|look for|watch for|nb|note to self|notes?|context|timing)\s*(?::|[ \t][–—-][ \t])[^\n]*?(?=[.?!](?:\s|$)|\n|$)[.?!]?/gi, '$1')
    .replace(/(^|\n|[.?!]\s+)\s*([-•*]\s+)?(?:probe|probes|follow[- ]?ups?|prompt|q\d*)\s*:\s*/gi, '$1$2')
    // "Ask: Walk me through the last time…", "Ask: How often…?": the label of what follows; a quoted question keeps it (quotedParts).
    .replace(/(^|\n|[.?!]\s+)\s*([-•*]\s+)?ask\s*:(?!\s*["“])\s*/gi, '$1$2');
  // "Magic wand question: if you could change one thing…?": the name of a question before it.
  text = text.replace(/(^|\n|[.?!]\s+)((?:[-•*]\s+)?)(?:[A-Za-z][\w'-]*\s+){0,2}question\s*:\s*(?=[^\n?]{3,300}\?)/gi, '$1$2');
  // "…, paying attention to who else was involved": what to listen for in the answer, asked as a question of its own.
  text = text.replace(/,?\s+(?:paying (?:close |particular )?attention to|with (?:a )?(?:focus|emphasis) on|focusing on|noting)\s+(?=(?:who|what|how|why|when|where|which|whether)\b)([^.?!\n]*)/gi, '. Ask $1');
  // "Tell me about a time it went wrong – get the specific story, not generalities": after a dash, a note to the interviewer.
  // ("Task 2 - ask them to…" is a label and its task: a note follows a question of four words or more.)
  text = text.replace(/([^\n]*?)[ \t]+[–—-][ \t]+(?=(?:get|push|probe|dig|ask|look|listen|watch|note|don'?t|do not|avoid|keep|make sure|try to|aim|focus|steer|redirect|move on|spend|go for|press|nudge)\b)[^\n?]*/gi, (all, before: string) =>
    before.trim().split(/\s+/).length >= 4 ? before : all,
  );
  // Examples are for the interviewer ("e.g. check-ups vs. fillings"); steps are sentences ("… → where did it go?", ", then ask why").
  // "If they mention approvals → probe on who approves": the arrow leads from a condition to what to do about it.
  text = text.replace(/[,;]?\s*\be\.g\.,?\s[^.?!;]*/gi, '').replace(/\b((?:if|when)\s[^.?!\n→]{2,60}?)\s*→\s*/gi, '$1, ').replace(/\s*→\s*/g, '. ').replace(/,?\s+(?:and\s+)?then\s+ask\b/gi, '. Ask');
  for (const [re, by] of SHORTHAND) text = typeof by === 'string' ? text.replace(re, by) : text.replace(re, by);
  return text
    // A line that ends without a mark before a line that starts a new one: two sentences, not one.
    .replace(/([^\s.?!:;,—–-])[ \t]*\n(?=[ \t]*(?:[A-Z]|\d{1,2}[a-z]?[.)]\s))/g, '$1.\n')
    .replace(/(^|\s)\(?\d{1,2}\)\s+/g, '$1. ')
    // "2.", "2.1", "3.1.2": an outline's numbers.
    .replace(/(^|\n)\s*(?:\d{1,2}(?:\.\d{1,2})*\.?|\d{1,2}[a-z][.)]|[-•*◦▪‣○·])\s+/g, '$1. ')
    .replace(/([.?!:;])\s*\.\s/g, '$1 ')
    .replace(/^\s*\.\s*/, '');
}

/** The participant questions of a talk or observe segment, and whether they are the generic fallback. */
export function questionPlan(segment: QuestionSource): QuestionPlan {
  const kept: string[] = [];
  // Runs of spaces and blank lines say nothing, and patterns that allow any amount of space around a word would try
  // every split of a long run: one space, and at most one blank line.
  const spaced = fromMarkdown((segment.instruction ?? '').slice(0, 4000)).replace(/[^\S\n]+/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{3,}/g, '\n\n');
  // "Read aloud: "Imagine Acme Autopilot: …"": said to the participant before the question that follows it.
  let readAloud: string | null = null;
  const withoutReading = segment.mode === 'talk' ? spaced.replace(READ_ALOUD, (all, start: string, quoted: string | undefined, plainText: string | undefined, lead: string) => {
    if (readAloud !== null) return all;
    readAloud = (quoted ?? plainText ?? '').trim().replace(/([^.!?])$/, '$1.');
    return `${start}${lead}${READ} `;
  }) : spaced;
  const instruction = readable(withoutReading, kept);
  let drafted: string[] = [];
  const drafts: Branch[] = [];
  const left: string[] = [];
  try {
    drafted = segment.mode === 'observe' ? observeQuestions(instruction) : talkQuestions(instruction, drafts, left);
  } catch {
    drafted = [];
  }
  const seen = new Set<string>();
  const tidy = (q: string) => q.replace(new RegExp(`${KEPT}([a-z])`, 'g'), (_, i: string) => kept[i.charCodeAt(0) - 97] ?? '').replace(/\s+/g, ' ').trim().replace(/(?<=[^\s.,;:])[\s.,;:]+\?$/, '?');
  const unread = (q: string) => q.replace(new RegExp(`${READ}\\s*`), '');
  const unasked = left.map((x) => unread(tidy(x)));
  const sayable = (q: string) => {
    const said = unread(q);
    return said.length > 3 && said.length <= MAX_QUESTION && !interviewerDirected(said);
  };
  // Where each drafted question ends up once the unsayable and the repeated are left out.
  const at = new Map<number, number>();
  const questions: string[] = [];
  // What the guide quoted for the participant (held as KEPT) is theirs as written: only the rest is checked.
  drafted.forEach((draft, i) => {
    const q = tidy(draft);
    if (!sayable(draft.replace(new RegExp(`${KEPT}[a-z]`, 'g'), 'it')) || seen.has(lower(q))) return;
    seen.add(lower(q));
    at.set(i, questions.push(q) - 1);
  });
  const branches = drafts.flatMap((b) => (at.has(b.after) && sayable(tidy(b.question)) ? [{ ...b, after: at.get(b.after)!, question: unread(tidy(b.question)) }] : []));
  // The reading goes before the question it leads to; with none after it, before the first.
  if (readAloud !== null && questions.length) {
    const k = Math.max(0, questions.findIndex((q) => q.includes(READ)));
    questions[k] = `${readAloud} ${unread(questions[k])}`;
  }
  // "Why do/did you put your top one first?": in the past when another question of the part is ("…ended up last?").
  const inThePast = questions.some((q) => !q.includes(SAME_FORM_DO) && /\b(?:did|was|were|had)\b/i.test(q));
  const tensed = (q: string) => q.replace(new RegExp(`^${SAME_FORM_DO}`), inThePast ? 'Did' : 'Do').replaceAll(SAME_FORM_DO, inThePast ? 'did' : 'do');
  if (questions.length) {
    const asked = questions.map((q) => tensed(unread(q)));
    const branched = branches.map((b) => ({ ...b, question: tensed(b.question) }));
    const notes = [...asked, ...branched.map((b) => b.question)].filter(readsAsNote);
    const spoken = (q: string) => (notes.includes(q) ? spokenNote(q) : q);
    return { questions: asked.map(spoken), generic: false, branches: branched.map((b) => ({ ...b, question: spoken(b.question) })), notes, unasked };
  }
  const title = segment.title?.trim() || 'this part';
  return { questions: [segment.mode === 'observe' ? genericObserve(title) : genericTalk(title)], generic: true, branches: [], notes: [], unasked };
}

/**
 * A question written as a note (`readsAsNote`), asked as a researcher would say it: "Price ok?" → "Was the price ok for you?",
 * "Trial?" → "Could you tell me about the trial?". A name ("Slack?") or anything longer stays as written.
 */
function spokenNote(question: string): string {
  // Read in lower case, as the tagger takes a capital at the start for a name ("Price"); a word it never saw is one.
  const words = parse(question.toLowerCase()).flatMap((s) => s.tokens).filter((t) => t.pos !== 'PUNCT');
  if (words.some((t) => t.pos === 'PROPN' || t.pos === 'NUM' || !isKnownWord(t.text))) return question;
  const judged = /^(?:(?:the|your|their) )?([a-z][a-z -]{1,30}?) (ok|okay|fine|clear|good|alright)\?$/i.exec(question);
  if (judged) return `Was the ${judged[1].toLowerCase()} ${judged[2].toLowerCase()} for you?`;
  const thing = /^(?:(?:the|your|their|a|an) )?([a-z][a-z -]{1,30}?)\?$/i.exec(question);
  return thing && !/\b(?:because|and|or|but|vs|versus|how)\b/i.test(thing[1]) ? `Could you tell me about the ${thing[1].toLowerCase()}?` : question;
}

/**
 * A question written as a note to oneself: no verb and no question word ("Trial?", "Price ok?"), or one that
 * stops mid-thought ("Almost didn't buy because?"). Participants read it as written.
 */
export function readsAsNote(question: string): boolean {
  if (/\b(?:because|b\/c|and|or|but|vs\.?|versus)\s*\?$/i.test(question)) return true;
  // "Using it how vs expected?": a gerund with its question word left at the end.
  if (/^\w+ing\b[^?]*\bhow\b/i.test(question) && !/^(?:\w+ing\b[^?]*\b(?:is|was|are|were|do|does|did)\b)/i.test(question)) return true;
  const tokens = parse(question).flatMap((s) => s.tokens).filter((t) => t.pos !== 'PUNCT' && t.pos !== 'SPACE');
  if (!tokens.length || tokens.length > 4) return false;
  // "Card or cash?" offers the choices of the question before it.
  return !tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX' || WH.has(lower(t.text)) || /^(?:any|anything|ever|so|or)$/i.test(t.text));
}

const THEY = 'speaks of the participant as "they"';
const DIRECTED: Array<[RegExp, string]> = [
  [/\b(?:the|a|each|every)\s+(?:participant|user|customer|respondent|interviewee|tester)s?\b|\bparticipants?'?s?\b/i, 'speaks of the participant in the third person'],
  [/\bserves\s+g-?\w*|\bg-[a-z][\w-]*/i, 'names a study goal'],
  [/(?:^|[.!?]\s+)(?:do not|don't|never|avoid|note|make sure|be sure|remember|prefer|stay|keep|resist|wait|let them)\b/i, 'coaches the interviewer'],
  [/\b(?:they|them|their|theirs|themselves)\b/i, THEY],
  [/\b(?:interviewer|conductor|instructions?|moderator)\b/i, 'mentions the interviewer\'s instructions'],
];

/** Why a text is written for the interviewer rather than the participant, or null when it is fine to say. */
export function interviewerDirected(text: string): string | null {
  // "…how do you keep track of when they're due?": asked of "you" first, its "they" are things or other people.
  const othersOnly = /\?\s*$/.test(text) && /\b(?:you|your)\b/i.test(text) && !/\b(?:they|them|their|theirs|themselves)\b/i.test(text.split(/\b(?:you|your)\b/i)[0]);
  for (const [re, why] of DIRECTED) if (re.test(text) && !(why === THEY && othersOnly)) return why;
  for (const s of parse(text)) {
    if (s.text.trim().endsWith('?')) continue;
    const first = s.tokens.find((t) => !LEADING_FILLER.has(lower(t.text)));
    if (first && first.pos === 'VERB' && lower(first.text) === lower(first.lemma) && !['thank', 'welcome', 'imagine', 'suppose', 'pretend', 'picture'].includes(lower(first.lemma))) return 'is an instruction';
  }
  return null;
}
