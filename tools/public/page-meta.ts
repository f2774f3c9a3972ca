import { scanHtml } from '../../core/html-scan.ts';

/** Whitespace collapsed, then cut to `max` UTF-16 units (the unit zod counts) without splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  let cut = clean.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

export interface PageMeta {
  title: string | null;
  description: string | null;
  /** Absolute URL of the best non-SVG icon the page declares, else the site's /favicon.ico. */
  icon: string;
}

export function pageMeta(html: string, pageUrl: string): PageMeta {
  const page = scanHtml(html.slice(0, 256 * 1024), ['meta', 'link']);
  const attrsOf = (name: string) => page.tags.filter((t) => t.name === name).map((t) => t.attrs);
  const metas = attrsOf('meta');
  const meta = (key: string) => metas.find((m) => (m.property ?? m.name)?.toLowerCase() === key && m.content?.trim())?.content ?? null;
  const title = meta('og:title') ?? page.title;
  const description = meta('og:description') ?? meta('description');

  const links = attrsOf('link').filter((l) => l.href);
  const svg = (l: Record<string, string>) => /svg/i.test(l.type ?? '') || /\.svgz?(?:$|[?#])/i.test(l.href);
  const rels = (l: Record<string, string>) => (l.rel ?? '').toLowerCase().split(/\s+/);
  const icon = links.find((l) => rels(l).includes('icon') && !svg(l)) ?? links.find((l) => rels(l).includes('apple-touch-icon') && !svg(l));
  let iconUrl: string;
  try {
    iconUrl = new URL(icon?.href ?? '/favicon.ico', pageUrl).toString();
  } catch {
    iconUrl = new URL('/favicon.ico', pageUrl).toString();
  }
  const text = (v: string | null) => (v && v.replace(/\s+/g, ' ').trim()) || null;
  return { title: text(title), description: text(description), icon: iconUrl };
}

/** Text of a fetched page in the charset its Content-Type names (UTF-8 otherwise). */
export function pageText(body: Buffer, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
