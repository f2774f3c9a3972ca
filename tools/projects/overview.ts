import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Services } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { Project, projectRecord } from './record.ts';
import { projectStudies } from '../studies/record.ts';

export const ProjectTotals = z.object({
  studies: z.number().int(),
  active_studies: z.number().int(),
  members: z.number().int(),
  settings_configured: z.number().int(),
});

export async function projectTotals(services: Services, projectId: string, orgId: string): Promise<z.input<typeof ProjectTotals>> {
  const { rows } = await services.db.pool.query<z.input<typeof ProjectTotals>>(
    `SELECT
       (SELECT count(*) FROM studies WHERE project_id = $1) AS studies,
       (SELECT count(*) FROM studies WHERE project_id = $1 AND status = 'active') AS active_studies,
       (SELECT count(*) FROM memberships WHERE organization_id = $2) AS members,
       (SELECT count(*) FROM project_settings WHERE project_id = $1) AS settings_configured`,
    [projectId, orgId],
  );
  return rows[0];
}

export const projectOverview = capability({
  name: 'projects.overview',
  title: 'Project overview',
  description: 'A summary of a project: the record, its totals and its studies with their status. A good first read before planning research.',
  input: z.strictObject({}),
  output: z.object({
    project: Project,
    totals: ProjectTotals,
    studies: z.array(z.object({ study_ref: z.string(), handle: z.string(), title: z.string(), status: z.string() })),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/overview' },
  async handler(ctx) {
    const { project, org } = projectOf(ctx);
    const studies = await projectStudies(ctx.services.db.pool, project.id);
    return {
      project: projectRecord(project, org),
      totals: await projectTotals(ctx.services, project.id, org.id),
      studies: studies.map((s) => ({ study_ref: s.id, handle: s.handle, title: s.title, status: s.status })),
    };
  },
});
