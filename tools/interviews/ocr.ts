import { createRequire } from 'node:module';
import path from 'node:path';
import type { Line, Worker } from 'tesseract.js';
import { cleanLine } from './ocr-text.ts';

const require = createRequire(import.meta.url);

/** The English LSTM model shipped in @tesseract.js-data/eng (gzipped): read from disk, never fetched. */
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/** Words tesseract is less sure of than this are noise (textures, icons, video grain), not text. */
const MIN_WORD_CONFIDENCE = 60;

export interface FrameText {
  /** The kept lines, top to bottom. */
  lines: string[];
  /** The line set in the largest type: a page's title or heading, as far as a picture can tell. */
  prominent: string | null;
}

function keptLine(line: Line): { text: string; height: number } | null {
  const text = cleanLine(line.words.filter((w) => w.confidence >= MIN_WORD_CONFIDENCE).map((w) => w.text).join(' '));
  // A lone short token among noise is more likely a texture than a word.
  if (!text || (!text.includes(' ') && text.length < 3)) return null;
  return { text, height: line.bbox.y1 - line.bbox.y0 };
}

/**
 * One tesseract worker for a processing job: frames are read one after the other on it, and
 * `close` ends its thread. Nothing is downloaded: the model comes from the npm package and
 * no cache is written.
 */
export async function screenReader(): Promise<{ read(image: string | Buffer): Promise<FrameText>; close(): Promise<void> }> {
  const { createWorker } = await import('tesseract.js');
  // Without an errorHandler tesseract.js rethrows a failed job (an unreadable image) outside any promise, ending the process.
  const worker: Worker = await createWorker('eng', 1, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none', errorHandler: () => {} });
  return {
    async read(image) {
      const { data } = await worker.recognize(image, {}, { text: false, blocks: true });
      const lines = (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.map(keptLine))).filter((l) => l !== null);
      const prominent = lines.reduce<(typeof lines)[number] | null>((best, l) => (!best || l.height > best.height ? l : best), null);
      return { lines: lines.map((l) => l.text), prominent: prominent?.text ?? null };
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
