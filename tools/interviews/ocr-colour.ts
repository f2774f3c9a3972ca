/**
 * Text set on a coloured box (a primary button, a badge, a banner): white or dark letters on a
 * saturated fill. Tesseract's page layout takes such a box for a picture and reads nothing in
 * it, whatever the polarity. In the frame's chroma (how far each pixel is from grey) the fill is
 * light and the letters, being white or black, are dark, so each box is read on its own there.
 */

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A pixel this far from grey (0–255, max − min of its channels) is coloured: #3355FF is 204, anti-aliased text under 40. */
const COLOURED = 64;
/** A box a control or a banner could be: a line or two of type, not a photo or a coloured page. */
const MIN_WIDTH = 16;
const MIN_HEIGHT = 12;
const MAX_HEIGHT = 200;
/** Solid: most of the box is fill. Holding text: some of it is not. */
const MIN_FILL = 0.55;
const MIN_HOLES = 0.02;
/** Enough for any screen's buttons and badges; a frame with more is a photo or a chart. */
const MAX_BOXES = 24;

/** How far from grey each pixel of an RGB frame is, scaled so that a fill reads near white. */
export function chroma(rgb: Buffer, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < out.length; i++, p += 3) {
    const r = rgb[p], g = rgb[p + 1], b = rgb[p + 2];
    const c = Math.max(r, g, b) - Math.min(r, g, b);
    out[i] = c * 2 > 255 ? 255 : c * 2;
  }
  return out;
}

/** The solid coloured boxes of a frame that hold something else (text), largest first. */
export function colouredBoxes(chromaOf: Uint8Array, width: number, height: number): Rect[] {
  const COLOURED_SCALED = COLOURED * 2;
  const label = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: Array<Rect & { area: number }> = [];
  let next = 0;
  for (let start = 0; start < label.length; start++) {
    if (label[start] || chromaOf[start] < COLOURED_SCALED) continue;
    next++;
    let top = height, left = width, bottom = -1, right = -1, count = 0, sp = 0;
    stack[sp++] = start;
    label[start] = next;
    while (sp) {
      const i = stack[--sp];
      const x = i % width, y = (i - x) / width;
      count++;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      if (x > 0 && !label[i - 1] && chromaOf[i - 1] >= COLOURED_SCALED) (label[i - 1] = next), (stack[sp++] = i - 1);
      if (x < width - 1 && !label[i + 1] && chromaOf[i + 1] >= COLOURED_SCALED) (label[i + 1] = next), (stack[sp++] = i + 1);
      if (y > 0 && !label[i - width] && chromaOf[i - width] >= COLOURED_SCALED) (label[i - width] = next), (stack[sp++] = i - width);
      if (y < height - 1 && !label[i + width] && chromaOf[i + width] >= COLOURED_SCALED) (label[i + width] = next), (stack[sp++] = i + width);
    }
    const w = right - left + 1, h = bottom - top + 1, area = w * h;
    if (w < MIN_WIDTH || h < MIN_HEIGHT || h > MAX_HEIGHT || w < h) continue;
    if (count < MIN_FILL * area || count > (1 - MIN_HOLES) * area) continue;
    boxes.push({ left, top, width: w, height: h, area });
  }
  if (boxes.length > MAX_BOXES) return [];
  return boxes.sort((a, b) => b.area - a.area).map(({ area: _, ...box }) => box);
}

/** The chroma as a greyscale PGM image, which tesseract reads as it reads a PNG. */
export function pgm(pixels: Uint8Array, width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), pixels]);
}
