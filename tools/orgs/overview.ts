import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { orgOf } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { Organization, orgRecord } from './record.ts';
import { organizations } from './rows.ts';

export const orgOverview = capability({
  name: 'organizations.overview',
  title: 'Organization overview',
  description:
    'A rollup of an organization: member and project counts, and each project with its study counts. ' +
    'Use it for a quick picture of an organization before choosing a project to work in.',
  input: z.strictObject({}),
  output: z.object({
    organization: Organization,
    totals: z.object({ projects: z.number().int(), members: z.number().int(), studies: z.number().int() }),
    projects: z.array(
      z.object({ project_ref: z.string(), name: z.string(), studies: z.number().int(), active_studies: z.number().int() }),
    ),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'org',
  rest: { method: 'GET', path: '/api/organizations/:orgHandle/overview' },
  async handler(ctx) {
    const org = orgOf(ctx);
    const { pool } = ctx.services.db;
    const { rows } = await pool.query<{ handle: string; name: string; studies: number; active_studies: number }>(
      `SELECT p.handle, p.name,
              count(s.id) AS studies,
              count(s.id) FILTER (WHERE s.status = 'active') AS active_studies
         FROM projects p LEFT JOIN studies s ON s.project_id = p.id
        WHERE p.organization_id = $1
        GROUP BY p.id ORDER BY p.created_at`,
      [org.id],
    );
    const projects = rows.map((r) => ({
      project_ref: `${org.handle}/${r.handle}`,
      name: r.name,
      studies: r.studies,
      active_studies: r.active_studies,
    }));
    const [organization] = await organizations.select(pool, 'id = $1', [org.id]);
    if (!organization) throw new Error(`Organization ${org.id} not found`);
    const members = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM memberships WHERE organization_id = $1`, [org.id]);
    return {
      organization: orgRecord(organization, org.role),
      totals: {
        projects: projects.length,
        members: members.rows[0].n,
        studies: projects.reduce((n, p) => n + p.studies, 0),
      },
      projects,
    };
  },
});
