import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { readOnly } from '../common.ts';

export const resolveProjectRef = capability({
  name: 'me.resolve_project',
  title: 'Resolve a project reference',
  description:
    'Turns an org and project given as handles or ids into the canonical pair (handles, project_ref, canonical_path). ' +
    'Only projects of the caller\'s organizations resolve.',
  input: z.strictObject({
    org: z.string().min(1).max(64).describe('Organization handle or id'),
    project: z.string().min(1).max(64).describe('Project handle or id'),
  }),
  output: z.object({
    organization_id: z.string(),
    project_id: z.string(),
    org_handle: z.string(),
    project_handle: z.string(),
    project_ref: z.string(),
    canonical_path: z.string(),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  rest: { method: 'GET', path: '/api/me/project-resolve' },
  async handler(ctx, input) {
    const { rows } = await ctx.services.db.pool.query<{ organization_id: string; project_id: string; org_handle: string; project_handle: string }>(
      `SELECT o.id AS organization_id, p.id AS project_id, o.handle AS org_handle, p.handle AS project_handle
         FROM organizations o
         JOIN memberships m ON m.organization_id = o.id AND m.user_id = $3
         JOIN projects p ON p.organization_id = o.id
        WHERE (o.handle = $1 OR o.id = $1) AND (p.handle = $2 OR p.id = $2)
        LIMIT 1`,
      [input.org, input.project, principalOf(ctx).userId],
    );
    const row = rows[0];
    if (!row) throw new NotFoundError('Project not found');
    return { ...row, project_ref: `${row.org_handle}/${row.project_handle}`, canonical_path: `/o/${row.org_handle}/p/${row.project_handle}` };
  },
});
