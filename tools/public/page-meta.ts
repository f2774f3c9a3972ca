const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’',
  ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', middot: '·', bull: '•', copy: '©', reg: '®', trade: '™', euro: '€', pound: '£',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

/** Whitespace collapsed, then cut to `max` UTF-16 units (the unit zod counts) without splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  let cut = clean.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

function attributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const a of tag.matchAll(/([^\s=/<>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) attrs[a[1].toLowerCase()] ??= decodeEntities(a[2] ?? a[3] ?? a[4] ?? '');
  return attrs;
}

export interface PageMeta {
  title: string | null;
  description: string | null;
  /** Absolute URL of the best non-SVG icon the page declares, else the site's /favicon.ico. */
  icon: string;
}

export function pageMeta(html: string, pageUrl: string): PageMeta {
  const head = html.slice(0, 256 * 1024);
  const metas = [...head.matchAll(/<meta\b[^>]*>/gi)].map((m) => attributes(m[0].slice(5)));
  const meta = (key: string) => metas.find((m) => (m.property ?? m.name)?.toLowerCase() === key && m.content?.trim())?.content ?? null;
  const titleTag = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(head)?.[1];
  const title = meta('og:title') ?? (titleTag ? decodeEntities(titleTag) : null);
  const description = meta('og:description') ?? meta('description');

  const links = [...head.matchAll(/<link\b[^>]*>/gi)].map((m) => attributes(m[0].slice(5))).filter((l) => l.href);
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
