import { clock } from '../common.ts';
import { sentences } from '../../core/sentences.ts';
import { LEADING_CUE, TRAILING_CUE, withoutStageDirections } from '../../core/stage-directions.ts';
import { nounPhrases } from '../../core/nlp.ts';
import { HEADLINE_MAX, ORDINAL_WORDS, describe, namesIn } from './headline.ts';
import { chatSpelledOut } from './plain-grammar.ts';
import { namedThing } from './wishes.ts';
import { readSentence, sentenceFeatures, type ReadSentence, type SentenceContext } from './sentence-features.ts';
import { CLASSES, SentenceModel } from './sentence-model.ts';
import { sarcasmIn, type Sarcasm } from './sarcasm.ts';
import { saysQuestionBack } from '../../core/said-back.ts';
import { lexiconCues } from './lexicon.ts';
import { REASKED } from '../conductor/reasked.ts';
import { timeAt } from './locate.ts';
import { OUTCOME, type EvidenceGrade, type ExtractedEvidence, type Extractor, type SignalType, type TargetSurface, type Turn } from './types.ts';

const INTENSIFIERS = /\b(really|so|very|super|extremely|incredibly|totally|completely|absolutely|literally|always|never|every single|hours?)\b/gi;
const STRONG_EMOTION = /\b(hate|love|furious|panic|nightmare|terrible|awful|amazing|desperate|scared)\b/i;
const HEDGE = /\b(maybe|i guess|probably|might|not sure|i suppose|kind of|sort of|perhaps)\b/i;
const DIRECT = /\b(i|we)\s+(\w+ed|couldn'?t|could not|tried|had to|went|got|was|were|spent|lost|found|clicked|used|switched|gave up|ended up|kept|chose|picked|bought|paid)\b/i;

const LABEL: Record<SignalType, string> = {
  struggling_moment: 'Struggle',
  desired_outcome: 'Wants',
  workaround: 'Workaround',
  hiring_criteria: 'Why they chose it',
  firing_moment: 'Reason to leave',
  emotional_response: 'Emotion',
  no_issue_found: 'No issue',
  smooth_completion: 'Went smoothly',
  critical_error: 'Critical error',
  recovery_success: 'Recovered',
  decision_point: 'Decision',
};

const CLAIM: Record<SignalType, string> = {
  struggling_moment: 'The participant struggled',
  desired_outcome: 'The participant wants an outcome the product does not give yet',
  workaround: 'The participant works around the product',
  hiring_criteria: 'The participant names a reason for choosing the product',
  firing_moment: 'The participant describes a reason to stop using the product',
  emotional_response: 'The participant reacts emotionally',
  no_issue_found: 'The participant reports no problem',
  smooth_completion: 'The participant completed this without trouble',
  critical_error: 'The participant reports that something in the product failed',
  recovery_success: 'The participant recovered from a problem',
  decision_point: 'The participant faced a decision',
};

/** When no clause makes a headline: the kind of moment and what it was about ("Struggle: the export button"), or the remark itself. */
function labelled(type: SignalType, text: string): string {
  const topic = nounPhrases(text)[0];
  // A short remark with no clause or noun phrase ("Oh, wonderful.") is its own best summary.
  const headline = topic ? `${LABEL[type]}: ${topic}` : `${LABEL[type]}: "${text.trim().replace(/[.!?]+$/, '')}"`;
  return headline.length <= HEADLINE_MAX ? headline : LABEL[type];
}

/** Words a goal does not end on ("pick up a"), and how long or how often it took ("for ages", "again"). */
const GOAL_TAIL = /(?:\s+(?:a|an|the|my|our|to|of|for|with|and|or|in|on|at|again|for ages|for hours|for a while|all day|every time|first|then|just))+$/i;

/** How much of a turn its goal is looked for in: a turn that runs on for pages is not read whole. */
const GOAL_REACH = 20_000;
/** Each turn's goal, read once however many cards it has. */
const goals = new WeakMap<Turn, string | null>();
const goalOfTurn = (turn: Turn): string | null => {
  if (!goals.has(turn)) goals.set(turn, goalOf(turn.text.slice(0, GOAL_REACH)));
  return goals.get(turn)!;
};

/** What the participant set out to do, in their words: "I was trying to pay our supplier" → "pay our supplier". */
function goalOf(text: string): string | null {
  // Spaces collapsed first: a pattern with any amount of space on both sides of a word tries every split of a long run.
  const spoken = text.replace(/\s+/g, ' ').replace(/,? ?\b(?:uh|um|erm|you know)\b,?/gi, ' ').replace(/, ?like, ?/gi, ' ').replace(/ {2,}/g, ' ').replace(/\b(a|an|the) \1\b/gi, '$1');
  const found = /\b(?:trying|tried|wanted|want|needed|need|had) to ([^,.;!?]{3,80})/i
    .exec(spoken)?.[1]
    ?.split(/\s(?:and|but|so|because|when|until|while|then|which|before|after)\s/i)[0]
    .trim()
    .replace(GOAL_TAIL, '');
  return found && found.includes(' ') ? found : null;
}

function surfaceOf(s: string): TargetSurface {
  if (/\b(you (already|just) asked|(this|that|your) (last )?question|you keep asking|you interrupted|you('re| are) (talking|going) too fast|repeat the question)\b/i.test(s)) return 'interviewer_conductor_behavior';
  if (/\b(this (interview|call|survey|widget|recording|chat)|the (widget|recording|microphone|mic)|can you hear me|(audio|sound) (cut|dropped|keeps)|your (widget|recorder))\b/i.test(s)) return 'service_widget_interview';
  return 'product_under_test';
}

function gradeOf(s: string): EvidenceGrade {
  if (HEDGE.test(s)) return 'weak';
  return DIRECT.test(s) ? 'direct' : 'strong_circumstantial';
}

function intensityOf(s: string): number {
  const intensifiers = (s.match(INTENSIFIERS) ?? []).length;
  return Math.min(1, Number((0.3 + 0.15 * intensifiers + (s.includes('!') ? 0.2 : 0) + (STRONG_EMOTION.test(s) ? 0.25 : 0)).toFixed(2)));
}

const mmss = (ms: number | null) => (ms == null ? null : clock(ms));

/** A participant sentence with what the sentence model needs to know about where it sits. */
export interface ParticipantSentence {
  turn: Turn;
  text: string;
  /** Where the sentence starts in the turn's text. */
  start: number;
  read: ReadSentence;
  context: SentenceContext;
  /** Typed while doing a task the interviewer set: a note, not an answer. */
  onTask: boolean;
}

/** Every participant sentence of an interview (two words or more), with the question it answers. */
export function participantSentences(turns: Turn[]): ParticipantSentence[] {
  return [...eachParticipantSentence(turns)];
}

/** The participant's sentences one at a time, so a caller can let other work run between them. */
function* eachParticipantSentence(turns: Turn[]): Generator<ParticipantSentence> {
  let question: string | null = null;
  let onTask = false;
  for (const [k, turn] of turns.entries()) {
    // An answer the interviewer heard as one to another question, and asked again: not evidence.
    if (turn.role !== 'interviewer' && turns[k + 1]?.role === 'interviewer' && turns[k + 1].text.startsWith(REASKED)) continue;
    if (turn.role === 'interviewer') {
      // A turn without a question (thanks, a remark) closes the previous question; so does a task to do while thinking aloud,
      // whose notes answer no question (the model, having seen few, reads a task's words as "nothing here").
      const qs = sentences(turn.text).filter((x) => x.text.endsWith('?'));
      onTask = TASK_PROMPT.test(turn.text);
      question = qs.length && !onTask ? qs[qs.length - 1].text : null;
      continue;
    }
    // "[unclear speech]" marks where a recording was not made out: no words of anyone's.
    const said = sentences(turn.text).map(withoutEdgeCues).filter((x) => withoutStageDirections(x.text) !== '');
    // Each sentence is parsed and its word cues read once: they are features of it and of its neighbours.
    // A transcript's "[laughs]" is no word said, so the model never sees it.
    const cues = new Map<number, string[]>();
    const read = new Map<number, ReadSentence>();
    const cuesAt = (i: number) => (i < 0 || i >= said.length ? [] : (cues.get(i) ?? cues.set(i, lexiconCues(withoutStageDirections(said[i].text))).get(i)!));
    const readAt = (i: number) => (i < 0 || i >= said.length ? undefined : (read.get(i) ?? read.set(i, readSentence(withoutStageDirections(said[i].text))).get(i)!));
    for (const [index, { text, start }] of said.entries()) {
      read.delete(index - 2);
      cues.delete(index - 2);
      if (text.split(/\s+/).length < 2) continue;
      // Read in the order of the text (the parser's lemmas can depend on what it read before).
      const own = { cues: cuesAt(index), read: readAt(index)! };
      const cuesAround = { own: own.cues, before: cuesAt(index - 1), after: cuesAt(index + 1) };
      const neighbours = { before: readAt(index - 1)?.lemmas ?? [], after: readAt(index + 1)?.lemmas ?? [] };
      yield { turn, text, start, read: own.read, context: { question, index, count: said.length, cues: cuesAround, neighbours }, onTask };
    }
  }
}

/** A sentence without the stage directions it opens or ends on ("[laughs] Honestly…"): still a verbatim span of its turn. */
function withoutEdgeCues(x: { text: string; start: number }): { text: string; start: number } {
  const lead = LEADING_CUE.exec(x.text)?.[0].length ?? 0;
  const text = x.text.slice(lead).replace(TRAILING_CUE, '');
  return text ? { text, start: x.start + lead } : x;
}

/**
 * A note typed during a task that says the product got in the way: "nothing seems to happen, no
 * spinner", "cant tell which stores are included", "theres no coupon box on this page". Said that
 * tersely, the model reads them as nothing; a researcher watching would not.
 */
const FAILED_ON_TASK = /\b(?:nothing (?:seems to |seemed to )?happen(?:s|ed|ing)?|no (?:spinner|download|file|email|confirmation|response)|(?:error|failed|crash(?:ed|es)?|froze|frozen|broken|(?:doesn'?t|does not|didn'?t|did not) (?:work|load|download))\b)/i;
const STUCK_ON_TASK = /\b(?:(?:can'?t|cannot|cant|couldn'?t|could not|don'?t|dont|didn'?t) (?:find|see|tell|get|work out|figure)|where(?:'s| is| are)\b|there(?:'s| is|s) no\b|no (?:\w+ )?(?:box|button|field|option|link|menu|way)\b|not (?:working|there|showing|obvious|clear)|confus\w*|hidden|missing|stuck|lost)\b/i;
const troubleNoted = (text: string): SignalType | null => (FAILED_ON_TASK.test(text) ? 'critical_error' : STUCK_ON_TASK.test(text) ? 'struggling_moment' : null);

/** "Could you show me how you would pay an invoice, thinking aloud as you go?": a task, and what is typed after it is notes. */
const TASK_PROMPT = /\b(?:thinking aloud|think aloud|as you normally would|what you notice along the way|show me how you would)\b/i;

/**
 * A question whose answer is, unless it says no, what it asks for: a wish. (Answers to "what got in
 * the way?" are not reliably snags: on the labelled transcripts such a rule was wrong every time.)
 */
const ASKS_FOR_WISH = /\b(?:what would make (?:it|the \w+|this) (?:more useful|better|easier)|more useful to you|what would you (?:change|add|improve)|if you could change|what would (?:help|you wish)|what do you wish|magic wand)\b/i;
/** A sentence that only says no: "Nothing, honestly.", "No, not really.", "None at all." */
const SAYS_ONLY_NONE = /^(?:(?:um|uh|so|well|honestly|oh),?\s*)*(?:no|nope|nah|nothing|none|not really|not at all|nothing really|not much)(?:[,.!]?\s*(?:honestly|really|at all|to be honest|i think|so far|not really|nothing|none))*[.!]*$/i;
/** "Nothing took long.", "Nothing was confusing really.": no trouble, said of the trouble asked about. */
const NOTHING_WENT_WRONG = /^(?:(?:um|uh|so|well|honestly|oh|no),?\s*)*nothing (?:really )?(?:took|was|went|felt|seemed|got) (?:(?:that|too|very|particularly|really|all that) )?(?:long|slow|hard|wrong|confusing|difficult|annoying|in the way)\b[^.!?]*[.!]*$/i;
/** "No.", "Nothing really.", "Not that I can think of.": no wish. */
const SAYS_NONE = /^(?:no(?:pe|ne|thing)?|not really|not much|all good|nah|i don'?t know|dunno|not sure|can'?t think of)\b/i;
/** What a first-sentence answer to such a question carries when the model is silent on it: a little under what the model's threshold would say. */
const ASKED_P = 0.4;
const askedFor = (s: ParticipantSentence): SignalType | null =>
  ASKS_FOR_WISH.test(s.context.question ?? '') && !SAYS_NONE.test(s.text.trim()) && s.text.split(/\s+/).length <= 25 ? 'desired_outcome' : null;

/** Told in the past: what happened, not what they want. */
const TOLD_AS_PAST = /\b(?:was|were|did|didn'?t|had|hadn'?t|went|got|took|came|made|said|told|\w+ed)\b/i;
/** Types the model gives a wish that names trouble ("…getting the VAT right") or a reason ("a weekly summary that flags…"). */
const NOT_A_WISH = new Set<SignalType>(['critical_error', 'struggling_moment', 'workaround', 'hiring_criteria', 'decision_point']);
const ORDINAL = new RegExp(`^(?:${ORDINAL_WORDS})\\b`, 'i');
const LISTED = new RegExp(`${ORDINAL.source}|^(?:also|and also|plus|another (?:one|thing)|one more(?: thing)?)\\b`, 'i');

const ABOUT_THE_QUESTION = /\bwhen you asked\b|\b(?:your|the|that|this) question\b|\bi (?:misread|misunderstood) (?:it|that|you|the question|your question)\b/i;
/** "My manager was not happy, the client was very not happy.": someone else's feeling, told by the participant. */
const OTHERS_FEEL = /\b(?:(?:my|our|the|his|her|their) (?:manager|boss|client|customer|wife|husband|colleagues?|team|kids?|son|daughter|partner|staff|users?|parents?|mum|mom|dad|accountant|director|ceo)s?|he|she|they) (?:was|were|is|are|got|gets|felt|feels|seemed)\b/i;
const FIRST_PERSON = /\b(?:i|i'm|im|i've|i'd|i'll|me|myself|we|we're|us)\b/i;
const FUNCTION_POS = new Set(['PRON', 'DET', 'AUX', 'ADP', 'CCONJ', 'SCONJ', 'PART', 'PUNCT', 'INTJ', 'SPACE', 'SYM']);
const GENERIC = new Set(['reason', 'thing', 'stuff', 'need', 'want', 'part', 'way', 'one', 'simple', 'only', 'just', 'really', 'so', 'very', 'point', 'lot', 'bit', 'kind', 'sort', 'whole', 'main', 'exactly', 'also', 'basically', 'be', 'do', 'have', 'get', 'say', 'mean', 'think', 'know', 'like', 'well', 'yeah', 'yes', 'okay', 'ok', 'right', 'here', 'there', 'then', 'now', 'all', 'what']);
/** A sentence with no word of its own beyond pointers and generic words ("this", "the reason", "what I need"). */
const saysNothingItself = (tokens: Array<{ pos: string; lemma: string; text: string }>) =>
  tokens.length > 0 && !tokens.some((t) => !FUNCTION_POS.has(t.pos) && !GENERIC.has(t.lemma.toLowerCase()) && !GENERIC.has(t.text.toLowerCase()) && /\p{L}/u.test(t.text));
/** "Two things.", "A couple of things:": the list is what follows. */
const ANNOUNCES_A_LIST = /^(?:(?:just |only |oh,? )?(?:one|two|three|a couple of|a few|several) (?:things?|ideas?|points?)(?: really| actually)?)[.:!]*$/i;
/** "Ha.", "Ok:", "Hmm.": a sound before the answer, not part of it. */
const INTERJECTION = /^(?:ha+|(?:ha)+|heh|lol|ok(?:ay)?|hmm+|um+|uh+|well|so|right|sure|oh)[.!,:…]*$/i;

const ASKS_ANYTHING_ELSE = /\banything else\b/i;
/** "It's great when…", "Love how it…": praise whose object is a complaint. */
const IRONIC = /^(?:(?:oh|yeah|well|so|and|honestly),?\s+)*(?:it'?s|that'?s|isn'?t it) (?:just |really |so |always )?(?:great|wonderful|lovely|brilliant|fantastic|perfect|fun|awesome|amazing) (?:when|how)\b(?=[^.!?]*\b(?:just (?:sits|stops|hangs|spins|freezes|dies|crashes|disappears|vanishes)|again|for (?:\w+ )?(?:minutes|hours|days|ages)|never|(?:doesn'?t|won'?t|can'?t|isn'?t|didn'?t)|logs? (?:me|you|us) out|freezes|crashes|teleports|disappears|vanishes|stuck)\b)/i;
const GOES_WELL = new Set<SignalType>(['smooth_completion', 'no_issue_found', 'recovery_success']);
/** "I just told you: the pricing.", "I already said, screenshots.", "bruh i told you": said again, briefly, because asked again. */
const TOLD_ALREADY = /^(?:(?:but|well|um|so|bruh|like),?\s+)*(?:i|we) (?:just |already )?(?:told you|said(?: so| that)?)\b[:,.!]*(?:\s+\S+){0,3}[.!]*$/i;
const CLOSING_NO =
  /^(?:no|nope|nah|nothing(?: else)?|not really)(?:[,.!]?\s*(?:that'?s (?:it|all|everything)|i think (?:that'?s (?:it|all|everything)|that covers it)|that covers it|thanks|thank you|all good|nothing else|i'?m good|really|gtg|got to go|gotta go|have to go|(?:my )?break(?:'s| is)? over|bye|cheers|ttyl))*[.!]*$/i;

/** Longest the extractor keeps the event loop (HTTP shares it with the worker) before letting other work run. */
const SLICE_MS = 15;
const breather = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The offline extractor: splits the participant's turns into sentences and lets the sentence
 * model (sentence-model.ts, trained on labelled transcripts) say which SPEC 2.6.1 signal type
 * each carries. Deterministic, fast, no network. Every quote it proposes is a sentence copied
 * verbatim from a transcript segment.
 */
export class LocalExtractor implements Extractor {
  readonly name = 'local';

  readonly model: SentenceModel;

  constructor(model: SentenceModel = SentenceModel.shipped()) {
    this.model = model;
  }

  async extract(turns: Turn[]): Promise<ExtractedEvidence[]> {
    const found: Told[] = [];
    let since = performance.now();
    const share = async () => {
      if (performance.now() - since < SLICE_MS) return;
      await breather();
      since = performance.now();
    };
    // The first sentence of each answer to a question that asks for a wish, and the first note of trouble typed during a task,
    // in case the model found nothing in that answer or note.
    const asked: Array<{ type: SignalType; sentence: ParticipantSentence }> = [];
    const proposedIn = new Set<Turn>();
    const firstSaidNone = new Set<Turn>();
    const openedBy = new Map<Turn, boolean>();
    for (const sentence of eachParticipantSentence(turns)) {
      // Read without emoji and chat fillers ("nah thats it ✌️"), as said.
      const said = chatSpelledOut(sentence.text);
      // "No, that's everything." to "Anything else?" closes the interview; it says nothing about the product.
      if (ASKS_ANYTHING_ELSE.test(sentence.context.question ?? '') && CLOSING_NO.test(said)) continue;
      // "I just told you: the pricing.": a complaint about being asked again, with the answer's name; the answer was a card before.
      if (TOLD_ALREADY.test(said)) continue;
      // "Earlier when you asked what I used before, I misread it.": about the interview, not the product.
      if (ABOUT_THE_QUESTION.test(said)) continue;
      // "This is what I need, simple.", "So for me this was the reason, only this.": it points at what was said around it, and says nothing itself.
      if (saysNothingItself(sentence.read.tokens) && !SAYS_ONLY_NONE.test(said) && !NOTHING_WENT_WRONG.test(said)) continue;
      // "What would make YOU more useful? Ha. Ok: show the month…": the question said back and a laugh open the answer, which starts after them.
      const opening = sentence.context.index === 0 || openedBy.get(sentence.turn) === true;
      const aside = saysQuestionBack(said, sentence.context.question) || INTERJECTION.test(said.trim()) || ANNOUNCES_A_LIST.test(said.trim());
      openedBy.set(sentence.turn, opening && aside);
      if (aside) continue;
      // "Nothing, honestly." tells of no trouble, whatever the question's words make the model think.
      const none = SAYS_ONLY_NONE.test(said) || NOTHING_WENT_WRONG.test(said);
      // "Oh, it's great when the bus icon just sits in the depot for ten minutes": praise of what went wrong is irony.
      const ironic = IRONIC.test(said);
      // "Oh, I love spending my Thursday mornings in a municipal lobby.": a feeling about it, not praise of it.
      const sarcastic = sarcasmOf(sentence) !== null;
      // Another person's feeling is theirs, not the participant's emotional response.
      const othersFeeling = OTHERS_FEEL.test(said) && !FIRST_PERSON.test(said);
      // "I don't know, whatever the others asked for probably." to a wish question wishes for nothing.
      const noWish = ASKS_FOR_WISH.test(sentence.context.question ?? '') && SAYS_NONE.test(said);
      // "Turning a quote into an invoice with one click…", "show the month on the report": to a wish question, what they
      // would have, however much of the trouble it names; what happened is told in the past.
      // "First, stop a class taking more bookings… Second, a weekly summary that flags…": each item of the list is a wish.
      // (An item's own clause may be past: "a summary that flags any class that went over"; what happened has a subject of its own.)
      const item = LISTED.test(said) && !/\b(?:i|we|it|they|he|she)\s+(?:was|were|did|had|went|got|took|\w+ed)\b/i.test(said);
      const wished = ASKS_FOR_WISH.test(sentence.context.question ?? '') && !noWish && (item || ((sentence.context.index <= 1 || opening) && !TOLD_AS_PAST.test(said)));
      const types = this.model
        .types(sentenceFeatures(sentence.read, sentence.context))
        .map((t) => (none ? { ...t, type: 'no_issue_found' as const } : ironic && GOES_WELL.has(t.type) ? { ...t, type: 'struggling_moment' as const } : sarcastic && (GOES_WELL.has(t.type) || t.type === 'hiring_criteria') ? { ...t, type: 'emotional_response' as const } : wished && NOT_A_WISH.has(t.type) ? { ...t, type: 'desired_outcome' as const } : t))
        .filter((t, k, all) => all.findIndex((u) => u.type === t.type) === k && !(noWish && t.type === 'desired_outcome') && !(othersFeeling && t.type === 'emotional_response'));
      for (const { type, p } of types) found.push({ type, p, sentences: [sentence], surest: sentence });
      if (sarcastic && !types.length) found.push({ type: 'emotional_response', p: ASKED_P, sentences: [sentence], surest: sentence });
      // "Second, a weekly summary that flags…": each item listed in answer to a wish question is one.
      else if (wished && item && !types.length) found.push({ type: 'desired_outcome', p: ASKED_P, sentences: [sentence], surest: sentence });
      if (types.length) proposedIn.add(sentence.turn);
      const type = askedFor(sentence) ?? (sentence.onTask ? troubleNoted(sentence.text) : null);
      // The first sentence of the answer, or the one after a first that knew of none ("I don't know… Maybe if it told me when the export is ready?").
      const opens = opening || (sentence.context.index === 1 && firstSaidNone.has(sentence.turn));
      if (noWish && sentence.context.index === 0) firstSaidNone.add(sentence.turn);
      if (type && (opens || sentence.onTask) && !asked.some((a) => a.sentence.turn === sentence.turn)) asked.push({ type, sentence });
      await share();
    }
    // "Pay button up front." to "What would make the product more useful?": the answer is what was asked for;
    // "theres no coupon box on this page" typed during the task is what the researcher would have seen.
    const added = asked.filter(({ sentence }) => !proposedIn.has(sentence.turn));
    if (added.length) {
      for (const { type, sentence } of added) found.push({ type, p: ASKED_P, sentences: [sentence], surest: sentence });
      // In the order they were said, as the model's own are.
      const order = new Map(turns.map((t, i) => [t, i]));
      found.sort((a, b) => order.get(a.sentences[0].turn)! - order.get(b.sentences[0].turn)! || a.sentences[0].start - b.sentences[0].start);
    }
    // One parse per sentence, however many types (and so cards) it heads; a recovery is told its own way.
    const described = new Map<string, ReturnType<typeof describe>>();
    const names = namesIn(turns.map((t) => t.text));
    const describeOnce = (s: ParticipantSentence, type: SignalType, named: string | null) => {
      const key = `${type === 'recovery_success' ? 'recovery' : 'any'}\u0000${named ?? ''}\u0000${s.text}`;
      return described.get(key) ?? described.set(key, describe(s.text, type, named ?? undefined, names)).get(key)!;
    };
    const cards: ExtractedEvidence[] = [];
    for (const told of tellsOnce(found)) {
      // "Bulk upload. I need it to take fifty photos at once.": the headline says what "it" is.
      const before = told.sentences[told.sentences.indexOf(told.surest) - 1];
      // Of the run's sentences, the one that says what the sarcasm is about, else the surest that is sarcastic.
      const sarcastic = told.type === 'emotional_response' ? [told.surest, ...told.sentences].flatMap((s) => { const x = sarcasmOf(s); return x ? [{ s, x }] : []; }) : [];
      const sarcasm = sarcastic.find(({ x }) => x.about) ?? sarcastic[0];
      if (sarcasm) {
        cards.push(evidenceOf(told, sarcasticWording(sarcasm.s.text, sarcasm.x)));
        continue;
      }
      const wording = describeOnce(told.surest, told.type, before ? namedThing(before.text) : null);
      cards.push(evidenceOf(told, { ...wording, headline: inContext(told, wording.headline, names) }));
      await share();
    }
    return mergeRetold(cards);
  }

  /**
   * The headline a card of `type` quoting `quote` gets, as extraction writes it: from the
   * sentence the model is surest carries the type (test/wording-quality.test.ts scores it).
   */
  headlineFor(quote: string, type: SignalType): string {
    const said = participantSentences([{ segment_id: 'quote', idx: 0, role: 'participant', speaker: null, start_ms: null, end_ms: null, text: quote }]);
    const k = CLASSES.indexOf(type);
    const p = said.map((s) => this.model.probabilities(sentenceFeatures(s.read, s.context))[k]);
    const surest = said[p.indexOf(Math.max(...p))]?.text ?? quote;
    return describe(surest, type).headline ?? labelled(type, surest);
  }
}

/** A type the model found, in one sentence or a run of consecutive ones of one turn. */
interface Told {
  type: SignalType;
  p: number;
  sentences: ParticipantSentence[];
  /** The sentence the model is surest carries the type: the headline and claim are made from it. */
  surest: ParticipantSentence;
}

/** At most this many sentences in one run: a quote stays a moment, not a monologue. */
const RUN_MAX = 3;

/**
 * One moment told over consecutive sentences of a turn ("The export failed. It said the file was
 * too big.") is one card quoting them all, not one card per sentence.
 */
function tellsOnce(found: Told[]): Told[] {
  const out: Told[] = [];
  for (const f of found) {
    const s = f.sentences[0];
    const run = out.findLast((o) => o.type === f.type && o.sentences.at(-1)!.turn === s.turn);
    const last = run?.sentences.at(-1);
    // "First, …" / "Second, …": items of a list are a card each.
    if (run && last && last.context.index === s.context.index - 1 && run.sentences.length < RUN_MAX && !ORDINAL.test(s.text.trim())) {
      run.sentences.push(s);
      if (f.p > run.p) Object.assign(run, { p: f.p, surest: s });
    } else out.push({ ...f, sentences: [s] });
  }
  return out;
}

/** A headline too thin to say anything alone: "It didn't", "Still nothing", "No file". */
const THIN_WORDS = 3;
const thin = (headline: string) => headline.split(/\s+/).length <= THIN_WORDS;

/**
 * "Still nothing." after "I clicked Export again.": a thin headline says what it follows, from
 * the sentence before it in the card or in the turn ("Clicked Export again; still nothing").
 */
function inContext(told: Told, headline: string | null, names: ReadonlySet<string>): string | null {
  // A wish or a criterion says what it is about ("Wants dark mode"): the sentence before is another matter.
  if (!headline || !thin(headline) || told.type === 'desired_outcome' || told.type === 'hiring_criteria') return headline;
  const { turn, start } = told.surest;
  // The two sentences before it in the turn, nearest first: the first that says something leads.
  const earlier = sentences(turn.text).filter((x) => x.start + x.text.length <= start).slice(-2).reverse();
  const lead = earlier.map((x) => describe(x.text, undefined, undefined, names).headline).find((h) => h && !thin(h));
  const lower = (h: string) => h.charAt(0).toLowerCase() + h.slice(1);
  // "i click export. nothing happen??": else what the card goes on to say.
  // (Typed without capitals, "nothing happen??" is still in the same sentence here.)
  const rest = told.surest.text.split(/(?<=[.!?])\s+(?=[a-z])/).slice(1).join(' ');
  const after = rest || told.sentences[told.sentences.indexOf(told.surest) + 1]?.text;
  const then = !lead && after ? describe(after, undefined, undefined, names).headline : null;
  const joined = lead && !/[;:]/.test(lead) ? `${lead}; ${lower(headline)}` : then && !/[;:]/.test(then) ? `${headline}; ${lower(then)}` : headline;
  return joined.length <= HEADLINE_MAX ? joined : headline;
}

/** The sarcasm of a sentence, read with the rest of its turn. */
const sarcasmOf = (s: ParticipantSentence) =>
  sarcasmIn(chatSpelledOut(s.text), s.turn.text.slice(0, s.start), s.turn.text.slice(s.start + s.text.length));

/** "Sarcastic about spending their Thursday mornings…", or the remark itself when it does not say what about. */
function sarcasticWording(text: string, { about }: Sarcasm): { headline: string | null; claim: string | null } {
  if (about) {
    const told = describe(`I am sarcastic about ${about}.`, 'emotional_response');
    const whole = told.claim?.replace(/^The participant is sarcastic/, 'Sarcastic').replace(/\.$/, '');
    return { headline: whole && whole.length <= HEADLINE_MAX ? whole : (told.headline?.replace(/^Is sarcastic/, 'Sarcastic') ?? null), claim: told.claim };
  }
  const remark = text.trim().replace(/[.!]+$/, '');
  const headline = `Sarcastic remark: "${remark}"`;
  return { headline: headline.length <= HEADLINE_MAX ? headline : 'Sarcastic remark', claim: `The participant said sarcastically: "${text.trim()}"` };
}

/** The card for a run: the quote spans its sentences verbatim; headline and claim come from its surest sentence. */
function evidenceOf({ type, p, sentences: run }: Told, told: ReturnType<typeof describe>): ExtractedEvidence {
  const { turn, context } = run[0];
  const last = run.at(-1)!;
  const text = turn.text.slice(run[0].start, last.start + last.text.length);
  const question = context.question;
  // The moment the quote starts, as its card's timestamp is placed (locate.ts), so the two agree.
  const at = mmss(timeAt(turn, run[0].start));
  return {
    signal_type: type,
    target_surface: surfaceOf(text),
    quote: text,
    segment_id: turn.segment_id,
    confidence: Number(Math.min(0.95, p).toFixed(2)),
    intensity: intensityOf(text),
    evidence_grade: gradeOf(text),
    headline: told?.headline ?? labelled(type, text),
    claim: told?.claim ?? (text.length <= 120 ? `${CLAIM[type]}: "${text.trim()}"` : `${CLAIM[type]}.`),
    reconstruction: question ? `Asked "${question}", the participant said: "${text}"` : `The participant said: "${text}"`,
    observed_facts: [`The participant said: "${text}"`, ...(question ? [`In answer to: "${question}"`] : []), ...(at ? [`At ${at} in the interview`] : [])],
    user_goal: goalOfTurn(turn),
    outcome: OUTCOME[type] ?? null,
  };
}

const STOP = new Set(['that', 'this', 'with', 'have', 'just', 'really', 'then', 'they', 'them', 'there', 'when', 'what', 'like', 'because', 'were', 'was', 'from', 'into', 'would', 'could', 'about', 'again', 'some', 'even', 'still', 'very', 'know', 'mean', 'yeah', 'well', 'thing', 'things', 'it\'s', 'i\'m', 'didn\'t', 'don\'t']);
const contentWords = (text: string) => new Set(text.toLowerCase().match(/[a-z']{4,}/g)?.filter((w) => !STOP.has(w)) ?? []);

/**
 * One moment told twice in an interview is one card: proposals of one type whose content
 * words mostly coincide are merged, keeping the stronger quote (higher confidence, then longer).
 */
function mergeRetold(found: ExtractedEvidence[]): ExtractedEvidence[] {
  const kept: Array<{ e: ExtractedEvidence; words: Set<string> }> = [];
  for (const e of found) {
    const words = contentWords(e.quote);
    const twin = kept.find((k) => {
      if (k.e.signal_type !== e.signal_type || words.size < 3 || k.words.size < 3) return false;
      const shared = [...words].filter((w) => k.words.has(w)).length;
      return shared / Math.min(words.size, k.words.size) >= 0.6;
    });
    if (!twin) kept.push({ e, words });
    else if (e.confidence > twin.e.confidence || (e.confidence === twin.e.confidence && e.quote.length > twin.e.quote.length)) Object.assign(twin, { e, words });
  }
  return kept.map((k) => k.e);
}
