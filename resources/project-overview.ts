import { resource } from '../core/mcp-registry.ts';
import { principalOf, projectOf } from '../core/context.ts';
import { projectRecord } from '../tools/projects/record.ts';
import { projectTotals } from '../tools/projects/overview.ts';
import { projectStudies } from '../tools/studies/record.ts';

export const projectOverviewResource = resource({
  name: 'project-overview',
  title: 'Project overview',
  description: 'A project as JSON: its record, totals and studies. Attach it to give an agent the project\'s context.',
  mimeType: 'application/json',
  uriTemplate: 'service://projects/{orgHandle}/{projectHandle}/overview',
  access: 'project',
  async list(ctx) {
    const { rows } = await ctx.services.db.pool.query(
      `SELECT o.handle AS org, p.handle AS project, p.name
         FROM projects p JOIN organizations o ON o.id = p.organization_id
         JOIN memberships m ON m.organization_id = o.id AND m.user_id = $1
        ORDER BY o.handle, p.handle LIMIT 200`,
      [principalOf(ctx).userId],
    );
    return (rows as Array<{ org: string; project: string; name: string }>).map((r) => ({
      uri: `service://projects/${r.org}/${r.project}/overview`,
      name: `${r.org}/${r.project}`,
      title: `${r.name} — overview`,
    }));
  },
  async read(ctx) {
    const { project, org } = projectOf(ctx);
    const studies = await projectStudies(ctx.services.db.pool, project.id);
    return JSON.stringify(
      {
        project: projectRecord(project, org),
        totals: await projectTotals(ctx.services, project.id, org.id),
        studies: studies.map((s) => ({ study_ref: s.id, handle: s.handle, title: s.title, status: s.status, goals: JSON.parse(s.goals_json ?? '[]') })),
      },
      null,
      2,
    );
  },
});
