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
    if (prev && ABBREVIATION.test(text.slice(prev.start, prev.end))) prev.end = index + segment.length;
    else spans.push({ start: index, end: index + segment.length });
  }
  const out: Array<{ text: string; start: number }> = [];
  for (const { start, end } of spans) {
    const raw = text.slice(start, end);
    const s = raw.trim();
    if (s) out.push({ text: s, start: start + raw.length - raw.trimStart().length });
  }
  return out;
}
