import { parse, type Token } from '../../core/nlp.ts';

/** Wishes said the way people say them, as the headline and claim of a wish need them said. */

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * "A history of what I sent." said just before "I want to see that": the thing the sentence
 * calls "that" or "it", when the sentence before names it and says nothing else. Null otherwise.
 */
export function namedThing(before: string): string | null {
  const [sentence] = parse(before);
  const words = (sentence?.tokens ?? []).filter((t) => t.pos !== 'PUNCT' || t.text === ',');
  let k = 0;
  while (k < words.length && (words[k].pos === 'INTJ' || words[k].text === ',' || /^(?:just|so|well|honestly|and|oh)$/i.test(words[k].text))) k++;
  const rest = words.slice(k);
  if (!rest.length || rest.filter((t) => t.text !== ',').length > 8) return null;
  // The phrase that names it ends where "of…", "for…", "what I…" or a comma begins.
  const cut = rest.findIndex((t) => t.pos === 'ADP' || t.pos === 'SCONJ' || t.pos === 'PRON' || t.text === ',');
  const head = cut < 0 ? rest : rest.slice(0, cut);
  // "Bulk upload" is a thing; "The buttons move" and "The app crashed" say something happened.
  // "Faster loading": a gerund after a describing word is a thing too.
  const thing = (t: Token, i: number) => t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'ADJ' || t.pos === 'DET' || t.pos === 'NUM' || t.pos === 'INTJ'
    || (t.pos === 'VERB' && i === head.length - 1 && i > 0 && t.text.toLowerCase() === t.lemma.toLowerCase() && head[0].pos !== 'DET')
    || (t.pos === 'VERB' && /ing$/i.test(t.text) && i > 0 && /^(?:ADJ|NOUN|ADV)$/.test(head[i - 1].pos))
    // The tagger's "Faster" (loading) is an adverb.
    || (t.pos === 'ADV' && /er$/i.test(t.text) && i === 0 && head.length > 1);
  if (!head.length || !head.every(thing) || !head.some((t) => t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'VERB')) return null;
  // The tagger reads "The buttons move", "The page loads" as one thing: a noun after a plural, or an "-s" after a noun, is their verb.
  const plural = (t?: Token) => t?.pos === 'NOUN' && t.text.toLowerCase() !== t.lemma.toLowerCase();
  if (head.length >= 3 && head.some((t, i) => i > 0 && ((plural(head[i - 1]) && t.pos === 'NOUN') || (i === head.length - 1 && plural(t) && head[i - 1].pos === 'NOUN')))) return null;
  const from = before.indexOf(rest[0].text);
  const named = before.slice(from).replace(/\s*,.*$/, '').replace(/[.!?]+$/, '').replace(/\s+please$/i, '').trim();
  // "Google Calendar sync" keeps its capitals; "Bulk upload" was capitalised only to start the sentence.
  return /^\S*[A-Z]\S*[A-Z]|^\S+\s+.*\b(?!I\b)[A-Z]/.test(named) ? named : lowerFirst(named);
}

/** "I want to see that" after the thing was named: "I want to see a history of what I sent". */
export const callsIt = (quote: string, named: string) => quote.replace(/\b((?:want|need|like|love|see|get|have|use|add|bring back)(?: to (?:see|get|have|use))?) (?:it|that|this)\b(?! (?:is|was|would|will|can|could)\b)/i, `$1 ${named}`);

/** "It would be great if it synced with Google": a wish, told as one ("I wish it synced with Google"). */
export const welcomeIf = (text: string) => {
  const welcome = /^((?:(?:oh|well|so|and|but|honestly|yeah),?\s+)*)(?:it|that)(?:'d| would) (?:be|make it) (?:(?:so|really|just|honestly|super|a lot|much)\s+)*(?:great|nice|amazing|ideal|awesome|perfect|lovely|helpful|brilliant|fantastic|wonderful|good|better|easier|a game[- ]?changer|a lifesaver) if (?=\w)/i.exec(text);
  return welcome ? `I wish ${text.slice(welcome[0].length)}` : text;
};
