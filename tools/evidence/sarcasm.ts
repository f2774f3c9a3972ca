import { sentences } from '../../core/sentences.ts';

/**
 * Sarcasm a sentence says in so many words: praise of what the participant plainly did not enjoy
 * ("Oh, I love spending my Thursday mornings in a municipal lobby.", "Nothing I like more after
 * fourteen hours on deck than doing data entry"), stock phrases ("Love that for me.", "Best part of
 * my week."), and bare praise after trouble or beside more of it ("…nobody told us. Great feature.
 * Really love that one."). Read literally, any of these would be headed as praise; a researcher
 * heads it as what it is.
 */
const OPENER = String.raw`(?:oh|yeah|well|ah|wow|gosh)`;
/** "Oh, I love spending…", "Yeah, I just adore waiting…": what they "love" doing, after an opener that gives the tone away. */
const LOVE_DOING = new RegExp(String.raw`^(?:${OPENER}[,!.]?\s+)+(?:i\s+)?(?:just\s+|really\s+|absolutely\s+)?(?:love|adore|enjoy)\s+((?:\w+ing)\b[^.!?]*)[.!]*$`, 'i');
/** "Nothing I like more after fourteen hours on deck than doing data entry in a Ford Ranger." */
const NOTHING_MORE = /^(?:(?:oh|yeah|honestly),?\s+)*(?:there'?s\s+)?nothing (?:i|we) (?:like|love|enjoy) more\b[^.!?]*?\bthan\s+([^.!?]+)[.!]*$/i;
/** Phrases said only in sarcasm. */
const STOCK = new RegExp(
  String.raw`^(?:${OPENER}[,!.]?\s+)*(?:love that for (?:me|us)|(?:the )?best part of my (?:day|week|month|morning|year)|just what i (?:needed|wanted)|living the dream|fun times|good times|what a (?:joy|treat|delight)|thanks for nothing|(?:great|fantastic|brilliant|wonderful|perfect|lovely|super)[,.!]*\s+(?:just|really|truly|absolutely)\s+(?:great|fantastic|brilliant|wonderful|perfect|lovely|super)|yeah,?\s+right)[.!]*$`,
  'i',
);
/** "Great feature.", "Oh, it's great.", "Love it.", "Brilliant design, that.", "Really forward-thinking.": praise with nothing praised in particular. */
const BARE_PRAISE = new RegExp(
  String.raw`^(?:(?:${OPENER}|really|so)[,!.]?\s+)*(?:(?:it'?s|that'?s|that was|what a|such a)\s+)?(?:(?:really|just|so|truly|very)\s+)?(?:great|brilliant|fantastic|wonderful|lovely|perfect|amazing|genius|forward-thinking|helpful|love (?:it|that(?: one)?))(?:\s+(?:feature|design|idea|system|work|stuff|move|plan|one|thinking))?(?:,\s*that)?[.!]*$`,
  'i',
);
/** Trouble told before bare praise: the praise is of the trouble. */
const TROUBLE = /\b(?:nobody|no one|nothing|lost|crash\w*|broke\w*|errors?|stuck|waited|waiting|again|wrong)\b/i;

export interface Sarcasm {
  /** What the sarcasm is about, in the participant's words ("spending my Thursday mornings in a municipal lobby"), when the sentence says. */
  about: string | null;
}

const sarcasticAlone = (text: string) => LOVE_DOING.test(text) || NOTHING_MORE.test(text) || STOCK.test(text);

/** The sarcasm in `sentence`, if any; `before` and `after` are the rest of its turn, which tell bare praise for what it is. */
export function sarcasmIn(sentence: string, before = '', after = ''): Sarcasm | null {
  const text = sentence.trim();
  const about = LOVE_DOING.exec(text)?.[1] ?? NOTHING_MORE.exec(text)?.[1];
  if (about) return { about: about.trim() };
  if (STOCK.test(text)) return { about: null };
  if (!BARE_PRAISE.test(text)) return null;
  const previous = sentences(before).at(-1)?.text ?? '';
  const next = sentences(after)[0]?.text ?? '';
  const nearby = [previous, next].some((s) => BARE_PRAISE.test(s.trim()) || sarcasticAlone(s.trim()));
  return nearby || TROUBLE.test(previous) ? { about: null } : null;
}
