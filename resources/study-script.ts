import { resource } from '../core/mcp-registry.ts';
import { principalOf, projectOf } from '../core/context.ts';
import { findStudy } from '../tools/studies/record.ts';
import { reviewScript } from '../tools/studies/script-review.ts';

export const studyScriptResource = resource({
  name: 'study-script',
  title: 'Study script',
  description: 'A study\'s goals and script (version 2 segments) with its current review, as JSON. Attach it to revise or run the study.',
  mimeType: 'application/json',
  uriTemplate: 'service://projects/{orgHandle}/{projectHandle}/studies/{studyId}/script',
  access: 'project',
  async list(ctx) {
    const { rows } = await ctx.services.db.pool.query(
      `SELECT o.handle AS org, p.handle AS project, s.handle AS study, s.title
         FROM studies s JOIN projects p ON p.id = s.project_id JOIN organizations o ON o.id = p.organization_id
         JOIN memberships m ON m.organization_id = o.id AND m.user_id = $1
        WHERE s.status <> 'closed'
        ORDER BY o.handle, p.handle, s.created_at LIMIT 200`,
      [principalOf(ctx).userId],
    );
    return (rows as Array<{ org: string; project: string; study: string; title: string }>).map((r) => ({
      uri: `service://projects/${r.org}/${r.project}/studies/${r.study}/script`,
      name: `${r.org}/${r.project}/${r.study}`,
      title: `${r.title} — script`,
    }));
  },
  async read(ctx, params) {
    projectOf(ctx);
    const study = await findStudy(ctx, params.studyId);
    const goals = JSON.parse(study.goals_json ?? '[]');
    const script = JSON.parse(study.script_json ?? 'null');
    return JSON.stringify({ study_ref: study.id, handle: study.handle, title: study.title, status: study.status, goals, script, review: reviewScript(script, goals) }, null, 2);
  },
});
