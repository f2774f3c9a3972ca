import { isKnownWord } from './nlp.ts';

/** Function words of other languages: a message is in one when it has two of them ("No sé, el banco…"). */
const FOREIGN_WORDS = new Set(
  [
    'merci oui nein el los las del que está están pero muy también porque cuando donde tengo quiero puedo hace tiene nada bien gracias sí qué cómo sé comprendo entiendo',
    'les des une dans avec pas je nous vous est très mais pourquoi rien',
    'der das und ist nicht ich mit für eine auf sehr danke nichts',
    'não obrigado obrigada tudo você muito',
    'che non sono della questo anche perché molto grazie niente',
    'het een niet ook maar ik wel voor zijn heb geen bedankt',
  ].join(' ').split(' '),
);
/** A message mostly in another language: words English does not have, two of them another language's function words. */
export function notEnglish(message: string): boolean {
  // Written in another script (Japanese, Arabic, Cyrillic…): no need to read the words.
  const letters = message.match(/\p{L}/gu) ?? [];
  if (letters.length >= 6 && letters.filter((c) => !/\p{Script=Latin}/u.test(c)).length / letters.length >= 0.5) return true;
  // Names ("Xero", "Quickbooks") are no language: a capitalised word after the first is not counted.
  const ws = (message.match(/[\p{L}']+/gu) ?? []).filter((w, i) => i === 0 || !/^\p{Lu}/u.test(w)).map((w) => w.toLowerCase());
  // Lowercase jargon ("gl codes, ap recon") is unknown to the lexicon too: another language shows in its function words.
  const foreign = ws.filter((w) => FOREIGN_WORDS.has(w)).length;
  return ws.length >= 3 && foreign >= 2 && ws.filter((w) => FOREIGN_WORDS.has(w) || !isKnownWord(w)).length / ws.length >= 0.5;
}
/** A word of another language said alone ("Bien.", "Nada."): nothing to name back. */
export const isForeignWord = (word: string) => FOREIGN_WORDS.has(word.toLowerCase());
