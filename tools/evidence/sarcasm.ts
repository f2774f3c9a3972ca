/**
 * Sarcasm a sentence says in so many words: praise of what the participant plainly did not enjoy
 * ("Oh, I love spending my Thursday mornings in a municipal lobby.") and stock phrases
 * ("Love that for me.", "Best part of my week."). Read literally, either would be headed as
 * praise; a researcher heads it as what it is.
 */
const OPENER = String.raw`(?:oh|yeah|well|ah|wow|gosh)`;
/** "Oh, I love spending…", "Yeah, I just adore waiting…": what they "love" doing, after an opener that gives the tone away. */
const LOVE_DOING = new RegExp(String.raw`^(?:${OPENER}[,!.]?\s+)+(?:i\s+)?(?:just\s+|really\s+|absolutely\s+)?(?:love|adore|enjoy)\s+((?:\w+ing)\b[^.!?]*)[.!]*$`, 'i');
/** Phrases said only in sarcasm. */
const STOCK = new RegExp(
  String.raw`^(?:${OPENER}[,!.]?\s+)*(?:love that for (?:me|us)|(?:the )?best part of my (?:day|week|month|morning|year)|just what i (?:needed|wanted)|living the dream|fun times|good times|what a (?:joy|treat|delight)|thanks for nothing|(?:great|fantastic|brilliant|wonderful|perfect|lovely|super)[,.!]*\s+(?:just|really|truly|absolutely)\s+(?:great|fantastic|brilliant|wonderful|perfect|lovely|super)|yeah,?\s+right)[.!]*$`,
  'i',
);

export interface Sarcasm {
  /** What the sarcasm is about, in the participant's words ("spending my Thursday mornings in a municipal lobby"), when the sentence says. */
  about: string | null;
}

export function sarcasmIn(sentence: string): Sarcasm | null {
  const text = sentence.trim();
  const doing = LOVE_DOING.exec(text);
  if (doing) return { about: doing[1].trim() };
  return STOCK.test(text) ? { about: null } : null;
}
