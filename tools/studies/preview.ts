import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { ValidationError } from '../../core/errors.ts';
import type { ProjectAttrs } from '../../models/index.ts';
import { readOnly } from '../common.ts';
import { Invitation, Language } from './schemas.ts';
import { placementOf, resolve } from './placement.ts';
import { projectStudies } from './record.ts';
import { intakeById } from '../intakes/record.ts';

/**
 * SPEC 2.10's four shapes keyed by `outcome`. Kept as one object (fields present per
 * outcome) because MCP output schemas must have an object at the root.
 */
export const PlacementResult = z
  .object({
    outcome: z.enum(['match', 'no_match', 'ambiguous', 'unavailable']),
    study_ref: z.string().optional().describe('match, unavailable'),
    study_title: z.string().optional().describe('match'),
    invitation: Invitation.nullable().optional().describe('match'),
    reason: z.enum(['configuration_ambiguous', 'inactive', 'capacity_reached', 'configuration_invalid', 'runtime_unavailable']).optional().describe('ambiguous, unavailable'),
    ambiguous_study_refs: z.array(z.string()).min(2).max(100).optional().describe('ambiguous'),
  });
export type PlacementResultT =
  | { outcome: 'match'; study_ref: string; study_title: string; invitation: z.input<typeof Invitation> | null }
  | { outcome: 'no_match' }
  | { outcome: 'ambiguous'; reason: 'configuration_ambiguous'; ambiguous_study_refs: string[] }
  | { outcome: 'unavailable'; study_ref: string; reason: 'inactive' | 'capacity_reached' | 'configuration_invalid' | 'runtime_unavailable' };

/**
 * Which study a page resolves to. Active studies compete first; when none is offered there
 * but a paused or draft one would be, the answer is `unavailable: inactive`.
 */
export async function resolvePlacement(ctx: Ctx, project: ProjectAttrs, pathname: string, language: string | null): Promise<PlacementResultT> {
  const pool = ctx.services.db.pool;
  const studies = await projectStudies(pool, project.id, `status <> 'closed'`);
  const invalid = studies.filter((s) => s.status === 'active' && s.visibility_json != null && !placementOf(s));
  const active = studies.filter((s) => s.status === 'active').map(placementOf).filter((p) => p !== null);
  const result = resolve(active, pathname, language);
  if (result.kind === 'ambiguous') {
    return { outcome: 'ambiguous', reason: 'configuration_ambiguous', ambiguous_study_refs: result.placements.slice(0, 100).map((p) => p.study.id) };
  }
  if (result.kind === 'one') {
    const { study, invitation } = result.placement;
    if (study.invitation_json != null && !invitation) return { outcome: 'unavailable', study_ref: study.id, reason: 'configuration_invalid' };
    if (study.intake_id) {
      const intake = await intakeById(study.intake_id, pool);
      if (intake && (intake.status !== 'active' || (intake.max_participants !== null && intake.qualified_count >= intake.max_participants))) {
        return { outcome: 'unavailable', study_ref: study.id, reason: 'capacity_reached' };
      }
    }
    return { outcome: 'match', study_ref: study.id, study_title: study.title, invitation };
  }
  const dormant = studies.filter((s) => s.status !== 'active').map(placementOf).filter((p) => p !== null && !p.untargeted);
  const sleeping = resolve(dormant as NonNullable<(typeof dormant)[number]>[], pathname, language);
  if (sleeping.kind !== 'none') {
    const study = sleeping.kind === 'one' ? sleeping.placement.study : sleeping.placements[0].study;
    return { outcome: 'unavailable', study_ref: study.id, reason: 'inactive' };
  }
  if (invalid.length) return { outcome: 'unavailable', study_ref: invalid[0].id, reason: 'configuration_invalid' };
  return { outcome: 'no_match' };
}

export function pathnameFrom(input: { pathname?: string; url?: string }): string {
  if (input.url) {
    try {
      return new URL(input.url).pathname;
    } catch {
      throw new ValidationError('url: must be an absolute URL');
    }
  }
  if (!input.pathname) throw new ValidationError('Send pathname or url');
  return input.pathname;
}

export const resolvePreview = capability({
  name: 'studies.resolve_preview',
  title: 'Preview which study a page gets',
  description:
    'Answers which study the widget would offer on a page (pathname or full url) and language: match (with the invitation), no_match, ' +
    'ambiguous (two studies tie), or unavailable (inactive, capacity_reached, configuration_invalid). Precedence: exclude beats include, ' +
    'exact beats subtree, then higher priority, then lower order; studies without visibility are offered everywhere below targeted ones.',
  input: z.strictObject({
    pathname: z.string().min(1).max(2000).regex(/^\//, 'must start with /').optional(),
    url: z.url().max(4000).optional(),
    language: Language.optional(),
  }),
  output: PlacementResult,
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'POST', path: 'P/studies/resolve-preview' },
  async handler(ctx, input) {
    if (input.url && input.pathname) throw new ValidationError('Send pathname or url, not both');
    const { project } = projectOf(ctx);
    return resolvePlacement(ctx, project, pathnameFrom(input), input.language ?? null);
  },
});
