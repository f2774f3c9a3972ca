import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import { safeFetch } from '../../core/safe-fetch.ts';
import { scanHtml } from '../../core/html-scan.ts';

export interface WidgetTag {
  src: URL;
  /** `data-project-key`, else the `key` query parameter of the script address. */
  key: string | null;
  async: boolean;
}

/** The widget script tags of a page: those that load `/sdk/widget.js`, with addresses that resolve. */
export function widgetTags(html: string, pageUrl: string): WidgetTag[] {
  const tags: WidgetTag[] = [];
  for (const { attrs } of scanHtml(html, ['script']).tags) {
    if (!attrs.src || !/\/sdk\/widget\.js(?:$|[?#])/.test(attrs.src)) continue;
    let src: URL;
    try {
      src = new URL(attrs.src, pageUrl);
    } catch {
      continue;
    }
    tags.push({ src, key: attrs['data-project-key'] || src.searchParams.get('key'), async: 'async' in attrs || 'defer' in attrs });
  }
  return tags;
}

/** Whether the page at `url` embeds this service's widget with this project's key. */
export async function embedsProjectWidget(ctx: Ctx, url: string): Promise<boolean> {
  const { project } = projectOf(ctx);
  const base = new URL(ctx.services.baseUrl()).origin;
  try {
    const page = await safeFetch(url, { allowLoopback: ctx.services.config.outboundAllowLoopback });
    if (page.status < 200 || page.status >= 300) return false;
    return widgetTags(page.body.toString('utf8'), page.url).some((t) => t.src.origin === base && t.key === project.public_key);
  } catch {
    return false;
  }
}
