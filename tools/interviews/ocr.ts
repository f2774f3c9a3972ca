import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Line, Word, Worker } from 'tesseract.js';
import { tools } from './media.ts';
import { chroma, colouredBoxes, pgm, type Rect } from './ocr-colour.ts';
import { cleanLine, median, prominentRun, readingOrder, typeSize, type TextRun } from './ocr-text.ts';

const require = createRequire(import.meta.url);

/** The English LSTM model shipped in @tesseract.js-data/eng (gzipped): read from disk, never fetched. */
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/** Words tesseract is less sure of than this are noise (textures, icons, video grain), not text. */
const MIN_WORD_CONFIDENCE = 60;

export interface FrameText {
  /** The kept lines in reading order (see readingOrder); runs set apart on one row are joined by " | ". */
  lines: string[];
  /** The heading: the wordy run set in the largest type, as far as a picture can tell (see prominentRun). */
  prominent: string | null;
}

/** Words further apart than this many ems are apart on the screen (a table's cells, a label and its value), not one phrase. */
const RUN_GAP_EM = 1;

/** A word's type size (see typeSize); a word of symbols only is taken for about an em. */
function wordSize(word: Word): number {
  return typeSize(word.text, word.bbox) ?? word.bbox.y1 - word.bbox.y0;
}

/**
 * A line as tesseract found it, as runs of words: confident words only, split where they are
 * far apart, each cleaned of UI borders.
 */
function runsOf(line: Line): TextRun[] {
  const words = line.words.filter((w) => w.confidence >= MIN_WORD_CONFIDENCE).map((w) => ({ w, size: wordSize(w) }));
  const groups: Array<typeof words> = [];
  for (const word of words) {
    const last = groups.at(-1)?.at(-1);
    if (last && word.w.bbox.x0 - last.w.bbox.x1 <= RUN_GAP_EM * Math.max(word.size, last.size)) groups.at(-1)!.push(word);
    else groups.push([word]);
  }
  const runs = groups
    .map((g) => ({
      text: cleanLine(g.map((x) => x.w.text).join(' ')),
      x0: Math.min(...g.map((x) => x.w.bbox.x0)),
      y0: Math.min(...g.map((x) => x.w.bbox.y0)),
      x1: Math.max(...g.map((x) => x.w.bbox.x1)),
      y1: Math.max(...g.map((x) => x.w.bbox.y1)),
      // Tesseract's row height (ascenders to descenders, about 0.93 em) caps it: on a line that runs across
      // columns, a word's box can take the height of the whole line.
      size: Math.min(median(g.map((x) => x.size))!, line.rowAttributes?.rowHeight / 0.93 || Infinity),
      sure: Math.min(...g.map((x) => x.w.confidence)),
    }))
    .filter((r) => r.text);
  // A lone short token is more likely a texture, an icon or the rest of a word cut off than a word: kept only when read with
  // certainty (a table's "42", an "OK" button).
  return runs.filter((r) => r.text.includes(' ') || r.text.length >= 3 || r.sure >= 90).map(({ sure: _, ...run }) => run);
}

/**
 * Type whose em is smaller than this many pixels is read enlarged: tesseract reads best with
 * capitals of 20 px or more, and app text of 12–14 px, in a 1280- or 1920-wide frame, has an em
 * of 13–14 (capitals of 9–10). A phone's 3× frame has 36 or more.
 */
const SMALL_EM = 20;
/** Frames are enlarged twice, to no more than this many pixels on their longer side (a 1920-wide frame 1.33×). */
const MAX_ENLARGEMENT = 2;
const MAX_LONG_SIDE = 2560;
/** Less enlargement than this is not worth its time. */
const MIN_ENLARGEMENT = 1.25;

/** Width and height of a PNG or JPEG from its header; null for anything else. */
export function imageSize(image: Buffer): { width: number; height: number } | null {
  if (image.length >= 24 && image.readUInt32BE(0) === 0x89504e47) return { width: image.readUInt32BE(16), height: image.readUInt32BE(20) };
  if (image[0] !== 0xff || image[1] !== 0xd8) return null;
  for (let at = 2; at + 9 < image.length; ) {
    if (image[at] !== 0xff) return null;
    const marker = image[at + 1];
    // Start of frame (baseline, progressive, ...), not DHT (c4), JPG (c8) or DAC (cc).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { width: image.readUInt16BE(at + 7), height: image.readUInt16BE(at + 5) };
    at += 2 + image.readUInt16BE(at + 2);
  }
  return null;
}

/**
 * The image enlarged to `width` by ffmpeg (Lanczos), sharpened (ffmpeg's default unsharp mask:
 * the thin strokes of small grey text stay strokes), as a grey PNG.
 */
export function enlarged(ffmpeg: string, image: Buffer, width: number, timeoutMs = 60_000): Promise<Buffer> {
  return filtered(ffmpeg, image, `scale=${width}:-1:flags=lanczos,unsharp,format=gray`, timeoutMs);
}

/** A PNG compressed lightly (this halves ffmpeg's time). */
const AS_PNG = ['-c:v', 'png', '-compression_level', '1', '-f', 'image2pipe'];
/** Pixels as they are, three bytes each. */
const AS_RGB = ['-f', 'rawvideo', '-pix_fmt', 'rgb24'];

/** The image through an ffmpeg filter graph, in the `output` format. */
function filtered(ffmpeg: string, image: Buffer, filter: string, timeoutMs = 60_000, output = AS_PNG): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, ['-v', 'error', '-f', 'image2pipe', '-i', 'pipe:0', '-frames:v', '1', '-vf', filter, ...output, 'pipe:1'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && out.length) resolve(Buffer.concat(out));
      else reject(new Error(`ffmpeg could not prepare the frame (exit ${code}): ${err.trim().split('\n').pop() ?? ''}`));
    });
    child.stdin.end(image);
  });
}

/**
 * One tesseract worker for a processing job: frames are read one after the other on it, and
 * `close` ends its thread. Nothing is downloaded: the model comes from the npm package and
 * no cache is written.
 *
 * Small type is read far better enlarged (ffmpeg), which costs time, so a frame is enlarged when
 * the type of the frame before it was small (the first frame always): the frames of one
 * recording share a screen and its type. A frame read as it is whose type turns out small, or
 * that showed no text, is read again enlarged.
 *
 * Automatic segmentation leaves out some text in boxes (a primary button's label, a search
 * field's placeholder): once a frame is read, what was read is painted over and the rest is read
 * again as sparse text (about 0.4 s more a frame).
 */
export async function screenReader(opts: { ffmpeg?: string } = {}): Promise<{ read(image: string | Buffer): Promise<FrameText>; close(): Promise<void> }> {
  const ffmpeg = opts.ffmpeg ?? tools({ ffmpegPath: null, ffprobePath: null }).ffmpeg;
  const { createWorker, PSM } = await import('tesseract.js');
  // Without an errorHandler tesseract.js rethrows a failed job (an unreadable image) outside any promise, ending the process.
  const worker: Worker = await createWorker('eng', 1, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none', errorHandler: () => {} });
  // The API's default treats a frame as one block of text, so a sidebar and the page beside it are read as one line each row;
  // automatic segmentation (the command line's default) finds the sidebar, header, panels and banners as blocks of their own.
  // Its notes ("Estimating resolution as 233") go nowhere rather than into the worker's log.
  await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: '/dev/null' });
  /** Whether the type of this recording's last frame with text was small. */
  let small = true;

  async function runsIn(image: Buffer): Promise<TextRun[]> {
    const { data } = await worker.recognize(image, {}, { text: false, blocks: true });
    return (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap(runsOf)));
  }

  async function runsAt(image: Buffer, factor: number, width: number): Promise<{ input: Buffer; runs: TextRun[] }> {
    // A frame ffmpeg cannot decode is read as it is: tesseract then says what is wrong with it.
    const input = factor === 1 ? image : await enlarged(ffmpeg, image, Math.round(width * factor)).catch(() => image);
    return { input, runs: await runsIn(input) };
  }

  /** The runs of `input` that reading it left out: read again, what was read painted white, as sparse text. */
  async function leftOut(input: Buffer, read: TextRun[]): Promise<TextRun[]> {
    const pad = 4;
    const boxes = read.map((r) => `drawbox=x=${Math.max(0, Math.round(r.x0) - pad)}:y=${Math.max(0, Math.round(r.y0) - pad)}:w=${Math.round(r.x1 - r.x0) + 2 * pad}:h=${Math.round(r.y1 - r.y0) + 2 * pad}:color=white:t=fill`);
    const painted = await filtered(ffmpeg, input, `format=rgb24,${boxes.join(',')},format=gray`).catch(() => null);
    if (!painted) return [];
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT });
    try {
      return await runsIn(painted);
    } finally {
      await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
    }
  }

  /** The text on the frame's coloured boxes (see ocr-colour.ts) that `read` does not hold, in the coordinates of a frame enlarged `factor` times. */
  async function onColour(frame: Buffer, size: { width: number; height: number }, factor: number, read: TextRun[]): Promise<TextRun[]> {
    const { width, height } = size;
    const rgb = await filtered(ffmpeg, frame, 'format=rgb24', undefined, AS_RGB).catch(() => null);
    if (!rgb || rgb.length !== width * height * 3) return [];
    const fill = chroma(rgb, width, height);
    const inside = (r: TextRun, b: Rect) => {
      const x = (r.x0 + r.x1) / 2 / factor, y = (r.y0 + r.y1) / 2 / factor;
      return x >= b.left && x <= b.left + b.width && y >= b.top && y <= b.top + b.height;
    };
    // A pale badge whose dark text the page layout did read is not read again.
    const boxes = colouredBoxes(fill, width, height).filter((b) => !read.some((r) => inside(r, b)));
    if (!boxes.length) return [];
    const image = pgm(fill, width, height);
    const found: TextRun[] = [];
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
    try {
      for (const b of boxes) {
        // Inset past the anti-aliased (often rounded) edge of the fill.
        const rectangle = { left: b.left + 2, top: b.top + 2, width: b.width - 4, height: b.height - 4 };
        const { data } = await worker.recognize(image, { rectangle }, { text: false, blocks: true });
        const runs = (data.blocks ?? []).flatMap((k) => k.paragraphs.flatMap((p) => p.lines.flatMap(runsOf)));
        found.push(...runs.map((r) => ({ ...r, x0: r.x0 * factor, y0: r.y0 * factor, x1: r.x1 * factor, y1: r.y1 * factor, size: r.size * factor })));
      }
    } finally {
      await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
    }
    return found;
  }

  return {
    async read(image) {
      const bytes = typeof image === 'string' ? await fs.readFile(image) : image;
      const size = imageSize(bytes);
      const most = size ? Math.min(MAX_ENLARGEMENT, MAX_LONG_SIDE / Math.max(size.width, size.height)) : 1;
      const enlarge = most >= MIN_ENLARGEMENT ? most : 1;
      // The median em of the runs read, in the frame's own pixels.
      const em = (found: TextRun[], at: number) => median(found.map((r) => r.size))! / at;
      let factor = small ? enlarge : 1;
      let { input, runs } = await runsAt(bytes, factor, size?.width ?? 0);
      // A little under SMALL_EM, so that type near it does not make every frame be read twice.
      if (factor < enlarge && (!runs.length || em(runs, factor) < 0.85 * SMALL_EM)) {
        factor = enlarge;
        ({ input, runs } = await runsAt(bytes, factor, size?.width ?? 0));
      }
      if (runs.length) small = em(runs, factor) < SMALL_EM;
      if (size) runs = [...runs, ...(await onColour(bytes, size, factor, runs))];
      if (runs.length) runs = [...runs, ...(await leftOut(input, runs))];
      return { lines: readingOrder(runs).map((row) => row.map((r) => r.text).join(' | ')), prominent: prominentRun(runs)?.text ?? null };
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
