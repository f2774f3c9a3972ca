/**
 * Which new card tells the moment an old one told, so that extracting an interview again keeps
 * what researchers did with its cards (review, note, dismissal, findings, task links): the new
 * card takes the old card's id. Quotes match when, in lower case and without punctuation, they
 * are equal or the shorter (three words or more) lies inside the longer; a card of the same type
 * is matched first.
 */
export interface OldCard {
  id: string;
  quote: string;
  signal_type: string;
}

const words = (quote: string) => quote.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').replace(/\s+/g, ' ').trim();

function sameMoment(a: string, b: string): boolean {
  if (a === b) return a.length > 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.split(' ').length >= 3 && ` ${long} `.includes(` ${short} `);
}

/** New card index → the id of the old card it continues. Each old card goes to one new card at most. */
export function continuedCards(old: OldCard[], fresh: Array<{ quote: string; signal_type: string }>): Map<number, string> {
  const taken = new Set<string>();
  const out = new Map<number, string>();
  const said = fresh.map((f) => words(f.quote));
  for (const sameType of [true, false]) {
    for (const card of old) {
      if (taken.has(card.id)) continue;
      const quote = words(card.quote);
      const at = fresh.findIndex((f, i) => !out.has(i) && (!sameType || f.signal_type === card.signal_type) && sameMoment(quote, said[i]));
      if (at < 0) continue;
      out.set(at, card.id);
      taken.add(card.id);
    }
  }
  return out;
}
