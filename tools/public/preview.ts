import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { DomainError } from '../../core/errors.ts';
import { safeFetch } from '../../core/safe-fetch.ts';
import { readOnly } from '../common.ts';
import { clip, pageMeta, pageText } from './page-meta.ts';

export const previewListing = capability({
  name: 'listings.preview',
  title: 'Preview a public listing from a page',
  description:
    'Fetches a public page of the site and suggests a public listing for it: hostname, destination_url, title (the page\'s og:title or ' +
    '<title>, at most 100 characters) and description (og:description or meta description, at most 280; empty when the page has none). ' +
    'Nothing is saved; publish with listings.publish. Internal, private and non-http(s) addresses are refused (url_not_allowed).',
  input: z.strictObject({ url: z.url().max(4000).describe('A public http(s) page of the site, e.g. https://www.example.com/') }),
  output: z.object({ hostname: z.string(), destination_url: z.string(), title: z.string(), description: z.string() }),
  annotations: { ...readOnly, openWorldHint: true },
  scope: 'read',
  access: 'project',
  rateLimit: 30,
  rest: { method: 'POST', path: 'P/public-listings/preview' },
  async handler(ctx, { url }) {
    const page = await safeFetch(url, { allowLoopback: ctx.services.config.outboundAllowLoopback, maxBytes: 512 * 1024, timeoutMs: 5000 });
    if (page.status < 200 || page.status >= 300) {
      throw new DomainError(`The page answered HTTP ${page.status}`, { code: 'page_unreachable', action: 'Check the address and that the page is public' });
    }
    const asked = new URL(url);
    const landed = new URL(page.url);
    // A redirect to another host (example.com → www.example.com) is not a page of the asked hostname.
    const destination = landed.hostname === asked.hostname ? landed : asked;
    const meta = /html|xml/i.test(page.contentType) || !page.contentType ? pageMeta(pageText(page.body, page.contentType), page.url) : null;
    return {
      hostname: destination.hostname,
      destination_url: destination.toString(),
      title: clip(meta?.title ?? destination.hostname, 100),
      description: clip(meta?.description ?? '', 280),
    };
  },
});
