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

/** A box in image pixels. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Words set together on one line of a screen: a heading, a label, a table cell, a sentence. */
export interface TextRun extends Box {
  text: string;
  /** Its type size (the em) in pixels, estimated from the heights of its letters. */
  size: number;
}

/**
 * The type size (em) of a word in pixels, from the height of its box and the letters in it: a
 * word of x-height letters ("use") is about half an em tall, one with a capital, a digit or an
 * ascender ("Save") about three quarters, one that also descends ("Apply") nearly a whole em.
 * Null for a word without letters or digits. (Tesseract's boxes of single letters are too rough
 * for this; a word's box is not.)
 */
export function typeSize(text: string, box: Box): number | null {
  if (!/[\p{L}\p{N}]/u.test(text)) return null;
  const up = /[\p{Lu}\p{N}bdfhiklt$&?!(){}[\]]/u.test(text);
  const down = /[gjpqy(){}[\]$]/.test(text);
  return (box.y1 - box.y0) / (up && down ? 0.93 : up ? 0.72 : down ? 0.74 : 0.53);
}

export function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

const centre = (b: Box) => (b.y0 + b.y1) / 2;

/** Two runs on one row: their vertical middles within about a third of the smaller one's height. */
function sameRow(a: Box, b: Box): boolean {
  return Math.abs(centre(a) - centre(b)) <= 0.35 * Math.min(a.y1 - a.y0, b.y1 - b.y0);
}

/** Share of `a`'s runs with a run of `b` on the same row. */
function alignedShare(a: Box[], b: Box[]): number {
  return a.filter((x) => b.some((y) => sameRow(x, y))).length / a.length;
}

/** Gaps (start, end) along one axis where no box reaches, at least `min` wide, widest first. */
function gaps(boxes: Box[], axis: 'x' | 'y', min: number): Array<[number, number]> {
  const spans = boxes.map((b) => (axis === 'x' ? [b.x0, b.x1] : [b.y0, b.y1])).sort((p, q) => p[0] - q[0]);
  const out: Array<[number, number]> = [];
  let reach = spans[0][1];
  for (const [from, to] of spans.slice(1)) {
    if (from - reach >= min) out.push([reach, from]);
    reach = Math.max(reach, to);
  }
  return out.sort((p, q) => q[1] - q[0] - (p[1] - p[0]));
}

/**
 * The runs of a screen in the order a person reads them, as rows. The screen is cut along its
 * widest gutter of blank space (XY-cut): down it, so a sidebar or a side panel (three runs or
 * more each side) is read apart from the page beside it, but never between columns whose runs
 * sit on the same rows (a table, a form in two columns: they are read row by row); across it,
 * into bands read top to bottom; then, in a band, down beside a lone button or name (a banner's
 * message before its button). What no gutter divides is read row by row, left to right.
 */
export function readingOrder(runs: TextRun[]): TextRun[][] {
  if (runs.length <= 1) return runs.length ? [runs] : [];
  const em = median(runs.map((r) => r.size))!;
  const down = gaps(runs, 'x', 1.5 * em).map(([from, to]) => {
    const left = runs.filter((r) => r.x1 <= from);
    const right = runs.filter((r) => r.x1 > from);
    return { left, right, width: to - from, apart: Math.min(alignedShare(left, right), alignedShare(right, left)) < 0.6 };
  });
  const across = gaps(runs, 'y', 1);
  const column = down.find((c) => c.apart && c.left.length >= 3 && c.right.length >= 3);
  if (column && (!across.length || column.width > across[0][1] - across[0][0])) return [...readingOrder(column.left), ...readingOrder(column.right)];
  if (across.length) {
    const cuts = across.map(([from]) => from).sort((a, b) => a - b);
    const bands: TextRun[][] = Array.from({ length: cuts.length + 1 }, () => []);
    for (const r of runs) bands[cuts.filter((y) => r.y1 > y).length].push(r);
    return bands.flatMap(readingOrder);
  }
  const beside = down.find((c) => c.apart);
  if (beside) return [...readingOrder(beside.left), ...readingOrder(beside.right)];
  // Overlapping runs no gutter parts: rows of runs whose middles are close, each left to right.
  const rows: TextRun[][] = [];
  for (const r of [...runs].sort((a, b) => centre(a) - centre(b))) {
    const row = rows.at(-1);
    if (row && Math.abs(centre(row[0]) - centre(r)) <= 0.5 * Math.min(row[0].y1 - row[0].y0, r.y1 - r.y0)) row.push(r);
    else rows.push([r]);
  }
  return rows.map((row) => row.sort((a, b) => a.x0 - b.x0));
}

/**
 * The heading of a screen: of the runs that read as words (mostly letters, one word of three
 * or more), those in the largest type (within a twentieth, the estimate's own spread), the
 * topmost. A balance or an order number set large is no heading.
 */
export function prominentRun(runs: TextRun[]): TextRun | null {
  const wordy = runs.filter((r) => {
    const chars = r.text.replace(/\s/g, '');
    return /\p{L}{3,}/u.test(r.text) && chars.replace(/[^\p{L}]/gu, '').length >= 0.6 * chars.length;
  });
  if (!wordy.length) return null;
  const largest = Math.max(...wordy.map((r) => r.size));
  return wordy.filter((r) => r.size >= 0.95 * largest).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0)[0];
}
