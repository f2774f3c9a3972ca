export interface Piece {
  text: string;
  signalId: string | null;
}
interface Segment {
  id: string;
  text: string;
}
interface Quote {
  id: string;
  quote: string;
  segment_id: string | null;
}

/**
 * Where each evidence card's quote sits in the transcript: the card's own segment when it names one and
 * holds the quote, else the first segment that does. Case and runs of spaces are ignored; a quote found
 * nowhere (a paraphrase, or one spanning turns) is left out and shown only as a card.
 */
export function locate(segments: Segment[], quotes: Quote[]): Map<string, Array<{ start: number; end: number; signalId: string }>> {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
  const texts = new Map(segments.map((s) => [s.id, norm(s.text)]));
  const found = new Map<string, Array<{ start: number; end: number; signalId: string }>>();
  for (const q of quotes) {
    const needle = norm(q.quote.trim()).replace(/^["“]|["”]$/g, '');
    if (!needle) continue;
    const order = q.segment_id && texts.has(q.segment_id) ? [q.segment_id, ...segments.map((s) => s.id)] : segments.map((s) => s.id);
    for (const id of order) {
      const at = texts.get(id)!.indexOf(needle);
      if (at < 0) continue;
      const list = found.get(id) ?? [];
      // Overlapping quotes: the first one found keeps the words.
      if (!list.some((r) => at < r.end && at + needle.length > r.start)) list.push({ start: at, end: at + needle.length, signalId: q.id });
      found.set(id, list);
      break;
    }
  }
  return found;
}

/** A segment's text cut into plain and highlighted pieces. Offsets are into the text with spaces collapsed. */
export function pieces(text: string, ranges: Array<{ start: number; end: number; signalId: string }> = []): Piece[] {
  const flat = text.replace(/\s+/g, ' ');
  const out: Piece[] = [];
  let at = 0;
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    if (r.start > at) out.push({ text: flat.slice(at, r.start), signalId: null });
    out.push({ text: flat.slice(r.start, r.end), signalId: r.signalId });
    at = r.end;
  }
  if (at < flat.length) out.push({ text: flat.slice(at), signalId: null });
  return out;
}
