import { createHash } from 'node:crypto';
import type { Services } from '../../core/context.ts';
import { safeFetch } from '../../core/safe-fetch.ts';
import { pageMeta, pageText } from './page-meta.ts';

export const MAX_ICON_BYTES = 100 * 1024;

/** Raster formats known by their first bytes; SVG is never stored, as it can carry script. */
const FORMATS: Array<{ type: string; ext: string; test: (b: Buffer) => boolean }> = [
  { type: 'image/png', ext: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/gif', ext: 'gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  { type: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/webp', ext: 'webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'image/x-icon', ext: 'ico', test: (b) => b.length > 6 && b.readUInt32BE(0) === 0x00000100 },
];

export interface StoredIcon {
  key: string;
  file: string;
  contentType: string;
}

/** The image as stored, or null when the answer is not a small raster image. */
export function iconFormat(body: Buffer, contentType: string, truncated: boolean) {
  if (truncated || body.length === 0 || body.length > MAX_ICON_BYTES) return null;
  const declared = contentType.split(';')[0].trim().toLowerCase();
  if (!declared.startsWith('image/') || declared.includes('svg')) return null;
  return FORMATS.find((f) => f.test(body)) ?? null;
}

/**
 * Best effort: the icon the destination page declares (or /favicon.ico), fetched with the same
 * SSRF guard as pages and stored under the host name. Null when anything on the way fails.
 */
export async function fetchIcon(services: Services, hostname: string, pageUrl: string): Promise<StoredIcon | null> {
  const allowLoopback = services.config.outboundAllowLoopback;
  try {
    const page = await safeFetch(pageUrl, { allowLoopback, maxBytes: 512 * 1024, timeoutMs: 4000 });
    const { icon } = pageMeta(pageText(page.body, page.contentType), page.url);
    const res = await safeFetch(icon, { allowLoopback, maxBytes: MAX_ICON_BYTES + 1, timeoutMs: 4000 });
    if (res.status < 200 || res.status >= 300) return null;
    const format = iconFormat(res.body, res.contentType, res.truncated);
    if (!format) return null;
    const file = `${createHash('sha256').update(res.body).digest('hex').slice(0, 20)}.${format.ext}`;
    const key = `public/listings/${hostname}/${file}`;
    await services.storage.put(key, res.body, format.type);
    return { key, file, contentType: format.type };
  } catch (err) {
    services.log.info('listing icon not stored', { hostname, error: err instanceof Error ? err.message : String(err) });
    return null;
  }
}
