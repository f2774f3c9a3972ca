import { isKnownWord, join, parse } from '../../core/nlp.ts';
import { escapeRegExp } from '../../core/regexp.ts';
import { correctionOf, plain, sentencesOf, singular } from './heard.ts';

/**
 * What the participant came to do, in their words, so later questions can say it instead of a
 * bare "it" ("What did you use for it before?" → "What did you use to pay your suppliers before?").
 */

/** The question that asks for it: "What did you come to do today?", "What were you trying to get done?" */
export const ASKS_FOR_GOAL = /\b(?:what did you come (?:here )?to do|what were you trying to|what brought you here)\b/i;
const OPENERS = /^(?:(?:um|uh|so|well|oh|ok(?:ay)?|like|you know|just|basically|honestly|mostly|today|ngl|tbh|lol|bruh|yeah|yes|good morning|hi|hello),?\s+)+/i;
// Also as said by someone still learning English: "I am come for pay the bill", "I want make a transfer", "For pay invoice"
// (what follows must still read as a verb phrase, so "I came for the webinar" gives no goal).
const LEAD_IN =
  /^(?:(?:i|we)(?:'m| am| was| were)?\s+)?(?:(?:just|really|only|actually|mainly|basically)\s+)?(?:came|come|here|wanted|want|needed|need|trying|try|tried|had|have|going|wished|wish|hoped|hope|meant|looking|(?:'d|would) like)\s+(?:in |here |on |over |by )?(?:(?:this (?:morning|afternoon|evening)|today|tonight|earlier) )?(?:to|for)\s+|^(?:i|we)(?:'m| am) here (?:to|for)\s+|^(?:i|we) (?:want|need|wanted|needed)\s+(?!to\b|help\b|support\b|advice\b|info)|^(?:to|for)\s+/i;
const CLAUSE_END = /[,;:]|\s(?:and then|but|because|so|since|before|after|which|when|while|until)\s/i;

/** "to send …" after a goal's object: what the goal is for, not part of it. */
const opensPurpose = (tokens: Array<{ pos: string; text: string }>, i: number) => tokens[i].pos === 'PART' && tokens[i].text.toLowerCase() === 'to' && tokens[i + 1]?.pos === 'VERB';

/** "a batch of", "the list of", "a couple of": the "of" belongs to the thing, which is what follows it. */
const QUANTITY = /^(?:batch|bunch|couple|few|lot|lots|load|loads|stack|pile|list|set|number|pair|handful|series|round|group|ton|tons|dozen|dozens|hundreds|thousands|rest|copy|copies|kind|sort|type|all|some|each|both|most|one|two|three|four|five)$/i;
/** Where a goal may end: at a preposition (except a quantity's "of") or where its purpose begins. */
const endsGoal = (tokens: Array<{ pos: string; text: string }>, i: number) =>
  (tokens[i].pos === 'ADP' && !(tokens[i].text.toLowerCase() === 'of' && QUANTITY.test(tokens[i - 1]?.text ?? ''))) || opensPurpose(tokens, i);
/** "a batch of supplier invoices", asked about as a habit, is "supplier invoices". */
const A_QUANTITY_OF = /\b(?:(?:a|the) (?:batch|bunch|couple|few|lot|load|stack|pile|set|number|pair|handful|series|round|group|ton|dozen|rest)|one|some|all|each|both|most) of\s+(?=\w)/gi;

/** The verb phrase of a goal answer ("I came in to pay this week's supplier invoices." → "pay this week's supplier invoices"), or null. */
export function goalOf(answer: string, stated = false): string | null {
  // Corrected in the same breath ("Sorry, I meant the invoices page, not bills"): too unsure to say back.
  if (/\b(?:i meant|i mean,|no wait|correction)\b/i.test(answer)) return null;
  // "Oh where do I start! I came in to send the VAT return.": the sentence that says what they came to do.
  // "Three things today: 1. export the monthly revenue report as CSV 2. …": the first thing listed.
  const listed = /(?:^|\n)\s*(?:1[.)]|[-•*])\s+([^\n]{4,})/.exec(answer)?.[1];
  const said = listed && /:\s*(?:\n|$)/m.test(answer) ? [`I came to ${listed.trim()}`] : sentencesOf(plain(answer));
  // "I run the finance side for three bakeries, and today I came in to reconcile…": or the clause that says it.
  // "I'm on the Fresco Box site, I wanted to skip next week's box": after a comma too, where it says what they came for.
  const clauses = said.flatMap((x) => [x, ...x.split(/,?\s+(?:and|so|but)\s+(?=(?:today\s+|now\s+)?(?:i|we)\b)|;\s*|,\s+(?=(?:i|we)(?:'m| am| was)?\s+(?:wanted|want|needed|need|came|come|trying|tried|here)\b)/i).slice(1)]);
  const leadIn = clauses.find((x) => LEAD_IN.test(x.replace(OPENERS, '')));
  // Outside the answer to the goal question, only a goal said as one ("I wanted to…") counts.
  if (stated && !leadIn) return null;
  const first = (leadIn ?? said[0])?.replace(/[.!?]+$/, '') ?? '';
  let goal = first.replace(OPENERS, '').replace(LEAD_IN, '').replace(OPENERS, '');
  goal = goal.split(CLAUSE_END)[0].trim().replace(/\s+(?:today|tonight|this morning|this afternoon|now|again|here|first|for once|for today|for (?:the|this|next) (?:week|month|quarter|year)|this (?:week|month)|(?:for|on) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight)(?: (?:morning|afternoon|evening|night))?)$/i, '');
  goal = goal.charAt(0).toLowerCase() + goal.slice(1);
  // Read after "I", so the tagger takes the first word for a verb where it can be one ("export the report").
  let tokens = (parse(`I ${goal}`)[0]?.tokens ?? []).slice(1);
  // "export our March sales report to send to my manager": the goal ends before what it is for.
  const purpose = tokens.findIndex((_, i) => i >= 2 && opensPurpose(tokens, i));
  if (purpose > 0) {
    goal = join(tokens.slice(0, purpose));
    tokens = tokens.slice(0, purpose);
  }
  // "rotate the API key that the pipeline uses": the thing, without the clause that says which.
  // (The tagger takes some nouns for adjectives, "the API key/ADJ": a phrase with its article is a thing.)
  const relative = tokens.findIndex((t, i) => i >= 2 && /^(?:that|which|who)$/i.test(t.text) && /^(?:NOUN|PROPN|ADJ)$/.test(tokens[i - 1].pos) && tokens.slice(1, i - 1).some((x) => x.pos === 'DET' || /^(?:my|our|your|their)$/i.test(x.text)));
  if (relative > 0) {
    goal = join(tokens.slice(0, relative));
    tokens = tokens.slice(0, relative);
  }
  // "set up automatic payment reminders for my overdue invoices": a long goal ends before its first preposition.
  if (goal.split(/\s+/).length > 8) {
    const cut = tokens.findIndex((t, i) => i >= 3 && t.pos === 'ADP' && endsGoal(tokens, i));
    if (cut > 0) {
      goal = join(tokens.slice(0, cut));
      tokens = tokens.slice(0, cut);
    }
  }
  const words = goal.split(/\s+/).length;
  // A clean verb phrase only: a base-form verb first ("pay…", "send…"), a few words, no pronoun left dangling.
  if (words < 2 || words > 8 || !tokens[0] || tokens[0].pos !== 'VERB' || tokens[0].text.toLowerCase() !== tokens[0].lemma.toLowerCase()) return null;
  if (/\b(?:it|them|this|that|these|those|stuff|things?|what|which|who)$/i.test(goal)) return null;
  // A typo ("pay bils") would be said back in every question: the script's own words are kept instead.
  if (goal.split(/\s+/).some((w) => /^[a-z]+$/.test(w) && !isKnownWord(w))) return null;
  return goal.replace(/\bmy\b/gi, 'your').replace(/\bour\b/gi, 'your').replace(/\bme\b/gi, 'you');
}

/**
 * The participant's goal, from their answer to the question that asked for it in these turns, or
 * from the answer after it when the first told none ("Today? It's Tuesday." then "I wanted to skip next week's box").
 */
export function goalIn(turns: Array<{ role: string; text: string }>): string | null {
  const asked = turns.findIndex((t) => t.role === 'conductor' && ASKS_FOR_GOAL.test(t.text));
  const later = asked >= 0 ? turns.slice(asked + 1).filter((t) => t.role === 'participant') : [];
  // "Why do you ask?", "Is this recorded?" before the answer are no answers.
  const answers = later.filter((t) => !sentencesOf(plain(t.text)).every((x) => x.endsWith('?')));
  for (const [k, answer] of answers.slice(0, 2).entries()) {
    // After the first answer, only what they state: "Use for what?" asks, it is no goal.
    const goal = k === 0 ? goalOf(answer.text) : goalOf(sentencesOf(answer.text).filter((x) => !x.endsWith('?')).join(' '), true);
    // "Sorry, I meant the invoices, not the quotes.", said at any point after: their word from then on.
    if (goal) return later.reduce((g, t) => corrected(g, correctionOf(t.text)), goal);
  }
  return null;
}

/** "send a quote to a new client" put right as "invoices, not quotes": "send an invoice to a new client". */
function corrected(goal: string, fix: { meant: string; not: string } | null): string {
  if (!fix || fix.meant.includes(' ') || fix.not.includes(' ')) return goal;
  const [meant, not] = [singular(fix.meant), singular(fix.not)];
  const plural = (w: string) => (/(?:s|sh|ch|x|z)$/.test(w) ? `${w}es` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`);
  return goal
    .replace(new RegExp(`\\b(?:(a|an) )?${escapeRegExp(not)}(s|es)?\\b`, 'gi'), (_, article: string | undefined, many: string | undefined) =>
      many ? plural(meant) : article ? `${/^[aeiou]/i.test(meant) ? 'an' : 'a'} ${meant}` : meant,
    );
}

/** Nouns said without an article ("send feedback", "do payroll"). */
const UNCOUNTED = /^(?:payroll|tax|vat|feedback|money|cash|data|stuff|work|admin|paperwork|accounting|billing|invoicing|banking|shopping|insurance|research|software|information|advice|help|support|access|time|mail|email|post|content|music|food|rent|stock|inventory)$/i;

/** "send invoice" → "send an invoice": a bare singular thing after the verb takes its article. */
function withArticle(goal: string): string {
  const tokens = (parse(`I ${goal}`)[0]?.tokens ?? []).slice(1);
  const object = tokens[1];
  // "supplier invoices": the last noun of a compound says whether it is one thing or several.
  let end = 1;
  while (tokens[end + 1]?.pos === 'NOUN') end++;
  const head = tokens[end];
  if (!object || object.pos !== 'NOUN' || head.text.toLowerCase() !== head.lemma.toLowerCase() || UNCOUNTED.test(head.text) || /s$/i.test(head.text)) return goal;
  const [verb, ...rest] = goal.split(' ');
  return [verb, /^[aeiou]/i.test(object.text) ? 'an' : 'a', ...rest].join(' ');
}

/**
 * The goal as something done before and again: no count ("chase two unpaid invoices" → "chase unpaid
 * invoices") and nothing after its object ("set up a quote for a bakery client" → "set up a quote").
 */
function asAHabit(goal: string): string {
  // "download your latest payslip" is done again as "download your payslip".
  const general = goal.replace(/\b(?:latest|newest|most recent|current|new)\s+(?=\w)/gi, '').replace(A_QUANTITY_OF, '').replace(/\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|a couple of|a few|several|\d+)\s+(?!of\b)(?=\w)/gi, '');
  const tokens = (parse(`I ${general}`)[0]?.tokens ?? []).slice(1);
  // From the third word on: "set up a quote" keeps its particle; "export the report to send to my manager" ends before its purpose.
  const cut = tokens.findIndex((_, i) => i >= 2 && endsGoal(tokens, i));
  const kept = cut > 0 ? join(tokens.slice(0, cut)) : general;
  return withArticle(kept);
}

/** A scripted question with its bare "it" replaced by the participant's goal, where the wording allows. */
export function grounded(question: string, said: string | null): string {
  if (!said) return question;
  // "this week's supplier bills" is one occasion; asked about before or the last time, they are "your supplier bills".
  // So is "the October revenue report": before or the last time, it was "the revenue report".
  const goal = said
    .replace(/\b(?:(?:this|last|next) (?:week|month|year|quarter|term|semester|season)|today|yesterday|january|february|march|april|may|june|july|august|september|october|november|december|q[1-4])'s\b/i, 'your')
    .replace(/\b(?<=(?:the|your) )(?:january|february|march|april|may|june|july|august|september|october|november|december|q[1-4])(?:'s)? (?=\w)/i, '');
  const habit = asAHabit(goal);
  return question
    .replace(/\bwhat did you use for it before\?$/i, (m) => `${m.startsWith('W') ? 'W' : 'w'}hat did you use to ${habit} before?`)
    // "The last time you had to export last quarter's invoices" would ask about two times at once.
    .replace(/\bthe last time you did it\?$/i, (m) => (/\b(?:last|this|next|yesterday|tomorrow)\b/i.test(goal) ? m : `the last time you had to ${habit}?`))
    .replace(/\bgo ahead with what you came to do today\b/i, `go ahead and ${withArticle(said)}`);
}
