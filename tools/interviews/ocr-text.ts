/** Never text on a screen: UI borders and box drawing that OCR reads as glyphs (|, ¦, │, ┃, ─ …). */
const BORDER = /[|¦‖｜\u2500-\u259f]/gu;
/** At the ends of a word, the edges of a button or field: brackets and braces, an input's underline. */
const EDGES = /^[[\]{}_]+|[[\]{}_]+$/gu;

/** A readable word has letters or digits in it and is mostly made of them. */
export function readable(word: string): boolean {
  const alnum = word.replace(/[^\p{L}\p{N}]/gu, '').length;
  return alnum >= 1 && alnum / word.length >= 0.6 && (alnum >= 2 || /^\p{N}$/u.test(word) || /^[aAI]$/.test(word));
}

/**
 * The text of an OCR line without the UI around it: "[Join waitlist|" is "Join waitlist". Borders
 * go wherever they are, brackets and underscores at the ends of words, and then tokens with
 * too few letters or digits to be words.
 */
export function cleanLine(text: string): string {
  return text
    .replace(BORDER, ' ')
    .split(/\s+/)
    .map((word) => word.replace(EDGES, ''))
    .filter((word) => word && readable(word))
    .join(' ');
}
