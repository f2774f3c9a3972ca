import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { Language } from '../studies/schemas.ts';
import { PlacementResult, resolvePlacement } from '../studies/preview.ts';
import { guardOrigin } from './origin-guard.ts';
import { studyById } from '../studies/record.ts';

export const sdkPlacement = capability({
  name: 'sdk.placement',
  title: 'Which study this page gets (widget)',
  description:
    'The widget asks which study applies to the page it is on (pathname and language), with the same placement rules as ' +
    'studies.resolve_preview. A matched study that lists allowed origins answers only pages on them.',
  input: z.strictObject({
    pathname: z.string().min(1).max(2000).regex(/^\//, 'must start with /'),
    language: Language.optional(),
  }),
  output: PlacementResult,
  annotations: readOnly,
  scope: 'read',
  access: 'sdk',
  mcp: false,
  rateLimit: 120,
  rest: { method: 'GET', path: '/api/sdk/placement' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const result = await resolvePlacement(ctx, project, input.pathname, input.language ?? null);
    if (result.outcome === 'match') await guardOrigin(ctx, await studyById(result.study_ref, ctx.services.db.pool), null);
    return result;
  },
});
