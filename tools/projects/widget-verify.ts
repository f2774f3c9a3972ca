import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { safeFetch } from '../../core/safe-fetch.ts';
import { readOnly } from '../common.ts';
import { normaliseOrigin } from '../sdk/origin-guard.ts';
import { resolvePlacement } from '../studies/preview.ts';
import { projectStudies } from '../studies/record.ts';
import { embedSnippet } from './widget-setup.ts';
import { widgetTags } from './widget-embed.ts';

const Problem = z.object({ code: z.string(), message: z.string(), action: z.string() });

export const verifyWidgetInstallation = capability({
  name: 'projects.verify_widget_installation',
  title: 'Check a page for the widget',
  description:
    'Fetches a page of the customer\'s site and reports whether the widget is embedded correctly: the snippet is there and loads from this ' +
    'service, it carries this project\'s SDK key, the page\'s origin is allowed by the active studies, and a study is placed on that page. ' +
    'Each problem names what to fix.',
  input: z.strictObject({ url: z.url({ protocol: /^https?$/ }).max(4000).describe('A page of the site, e.g. https://www.example.com/pricing') }),
  output: z.object({
    url: z.string(),
    final_url: z.string().nullable(),
    installed: z.boolean(),
    problems: z.array(Problem),
    warnings: z.array(Problem),
    placement: z.object({ outcome: z.string(), study_ref: z.string().optional() }).nullable(),
  }),
  annotations: { ...readOnly, openWorldHint: true },
  scope: 'read',
  access: 'project',
  rateLimit: 30,
  rest: { method: 'POST', path: 'P/widget-installation/verify' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const base = new URL(ctx.services.baseUrl());
    const problems: z.input<typeof Problem>[] = [];
    const warnings: z.input<typeof Problem>[] = [];
    const result = (finalUrl: string | null, placement: { outcome: string; study_ref?: string } | null = null) => ({ url: input.url, final_url: finalUrl, installed: problems.length === 0, problems, warnings, placement });

    let page;
    try {
      page = await safeFetch(input.url, { allowLoopback: ctx.services.config.outboundAllowLoopback });
    } catch (err) {
      if (err instanceof AppError && err.code === 'url_not_allowed') throw err;
      problems.push({ code: 'page_unreachable', message: err instanceof Error ? err.message : 'The page could not be fetched', action: 'Check the address is public and the site is up, then try again' });
      return result(null);
    }
    if (page.status < 200 || page.status >= 300) {
      problems.push({ code: 'page_unreachable', message: `The page answered HTTP ${page.status}`, action: 'Check the address and that the page is public' });
      return result(page.url);
    }
    const tags = widgetTags(page.body.toString('utf8'), page.url);
    const fromHere = tags.filter((t) => t.src.origin === base.origin);
    const ours = fromHere.find((t) => t.key === project.public_key) ?? fromHere[0];
    if (!ours) {
      problems.push(tags.length
        ? { code: 'snippet_wrong_host', message: `The widget script loads from ${tags[0].src.origin}, not ${base.origin}`, action: `Use the snippet as given: ${embedSnippet(ctx)}` }
        : { code: 'snippet_missing', message: 'No widget script tag was found in the page', action: `Add before </body>: ${embedSnippet(ctx)}` });
      return result(page.url);
    }
    if (!ours.key) problems.push({ code: 'project_key_missing', message: 'The widget script has no data-project-key', action: `Add data-project-key="${project.public_key}" to the script tag` });
    else if (ours.key !== project.public_key) problems.push({ code: 'wrong_project_key', message: 'The widget script carries another project\'s SDK key', action: `Use data-project-key="${project.public_key}"` });
    if (!ours.async) warnings.push({ code: 'not_async', message: 'The script tag blocks page rendering', action: 'Add the async attribute' });

    const origin = normaliseOrigin(new URL(page.url).origin);
    const studies = await projectStudies(ctx.services.db.pool, project.id, `status = 'active'`);
    const restricted = studies.filter((s) => s.allowed_origins.length);
    if (restricted.length && !restricted.some((s) => s.allowed_origins.some((o) => normaliseOrigin(o) === origin))) {
      problems.push({ code: 'origin_not_allowed', message: `No active study allows ${origin}`, action: `Add ${origin} to the allowed_origins of the study meant for this site` });
    }
    const pathname = new URL(page.url).pathname;
    const placed = await resolvePlacement(ctx, project, pathname, null);
    if (placed.outcome !== 'match') warnings.push({ code: 'no_study_for_page', message: `No study is offered on ${pathname} (${placed.outcome})`, action: 'Check the studies\' visibility rules and status with studies.resolve_preview' });
    return result(page.url, { outcome: placed.outcome, ...('study_ref' in placed ? { study_ref: placed.study_ref } : {}) });
  },
});
