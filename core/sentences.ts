const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
/** Abbreviations ICU's default rules end a sentence at (V8 has no `ss=standard` suppressions). */
const ABBREVIATION = /(?:^|\s)(?:mr|mrs|ms|dr|prof|st|vs|e\.g|i\.e|approx)\.\s*$/i;

/**
 * The one sentence splitter: Unicode sentence boundaries (Intl.Segmenter), so "$3.50", "3.5"
 * and "Mr. Smith" do not end a sentence. Each sentence is an exact, trimmed substring of
 * `text` with its offset, so quotes built from it stay verbatim.
 */
export function sentences(text: string): Array<{ text: string; start: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  for (const { segment, index } of segmenter.segment(text)) {
    const prev = spans[spans.length - 1];
    // "the Home URL with ?month=10 on the end": a "?" or "!" with no space after it ends no sentence.
    const glued = prev && /[?!]$/.test(text.slice(prev.start, prev.end)) && /^[\p{L}\p{N}=&_/%-]/u.test(segment);
    if (prev && (glued || ABBREVIATION.test(text.slice(prev.start, prev.end)))) prev.end = index + segment.length;
    else spans.push({ start: index, end: index + segment.length });
  }
  const out: Array<{ text: string; start: number }> = [];
  for (const span of quotedWhole(text, spans)) {
    for (const { start, end } of pieces(text, span)) {
      const raw = text.slice(start, end);
      const s = raw.trim();
      if (s) out.push({ text: s, start: start + raw.length - raw.trimStart().length });
    }
  }
  return out;
}

/** Quotation marks a span leaves open: straight double quotes unpaired, or more “ than ”. */
const opensQuote = (span: string) => (span.match(/"/g) ?? []).length % 2 === 1 || (span.match(/“/g) ?? []).length > (span.match(/”/g) ?? []).length;

/**
 * A quotation of several sentences ("It said "Session expired. Please log in again."") stays in the
 * sentence that quotes it, when it closes within the next two sentences; a stray mark changes nothing.
 */
function quotedWhole(text: string, spans: Array<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (let i = 0; i < spans.length; i++) {
    const span = { ...spans[i] };
    if (opensQuote(text.slice(span.start, span.end))) {
      const closes = [1, 2].find((n) => i + n < spans.length && !opensQuote(text.slice(span.start, spans[i + n].end)));
      if (closes) {
        span.end = spans[i + closes].end;
        i += closes;
      }
    }
    out.push(span);
  }
  return out;
}

/** Longest sentence kept whole: speech transcribed without punctuation runs on for pages, and a quote or a parse need not. */
export const SENTENCE_MAX_CHARS = 600;

/** A span longer than SENTENCE_MAX_CHARS, in pieces ending at a comma or a conjunction where there is one, else at a space. */
function pieces(text: string, { start, end }: { start: number; end: number }): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  while (end - start > SENTENCE_MAX_CHARS) {
    const window = text.slice(start, start + SENTENCE_MAX_CHARS);
    const half = SENTENCE_MAX_CHARS / 2;
    const clause = Math.max(window.lastIndexOf(', '), ...[' and ', ' but ', ' so ', ' because ', ' then '].map((w) => window.lastIndexOf(w)));
    const space = window.lastIndexOf(' ');
    // With no space to cut at, never between the two halves of a character outside the BMP (an emoji).
    const hard = /[\uDC00-\uDFFF]/.test(text[start + SENTENCE_MAX_CHARS] ?? '') ? SENTENCE_MAX_CHARS - 1 : SENTENCE_MAX_CHARS;
    const cut = clause >= half ? clause + 1 : space >= half ? space : hard;
    out.push({ start, end: start + cut });
    start += cut;
  }
  out.push({ start, end });
  return out;
}
