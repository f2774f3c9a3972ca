import { resource } from '../core/mcp-registry.ts';
import { principalOf } from '../core/context.ts';
import { orgsOf, orgRecord } from '../tools/orgs/record.ts';

export const organizationsResource = resource({
  name: 'organizations',
  title: 'My organizations',
  description: 'The organizations you belong to, with your role in each, as JSON.',
  mimeType: 'application/json',
  uriTemplate: 'service://organizations',
  access: 'user',
  async list() {
    return [{ uri: 'service://organizations', name: 'organizations', title: 'My organizations' }];
  },
  async read(ctx) {
    const orgs = await orgsOf(ctx.services, principalOf(ctx).userId);
    return JSON.stringify({ organizations: orgs.map((o) => orgRecord(o, o.role)) }, null, 2);
  },
});

export const projectsResource = resource({
  name: 'projects',
  title: 'My projects',
  description: 'Every project you can reach, with its project_ref (pass it as projectRef to tools), as JSON.',
  mimeType: 'application/json',
  uriTemplate: 'service://projects',
  access: 'user',
  async list() {
    return [{ uri: 'service://projects', name: 'projects', title: 'My projects' }];
  },
  async read(ctx) {
    const { rows } = await ctx.services.db.pool.query(
      `SELECT o.handle AS org, p.handle, p.name, p.description, m.role,
              (SELECT count(*)::int FROM interviews i WHERE i.project_id = p.id) AS interviews,
              (SELECT count(*)::int FROM signals s WHERE s.project_id = p.id AND s.dismissed_at IS NULL) AS evidence
         FROM projects p JOIN organizations o ON o.id = p.organization_id
         JOIN memberships m ON m.organization_id = o.id AND m.user_id = $1
        ORDER BY o.handle, p.handle`,
      [principalOf(ctx).userId],
    );
    return JSON.stringify({ projects: rows.map((r) => ({ project_ref: `${r.org}/${r.handle}`, name: r.name, description: r.description, role: r.role, interviews: r.interviews, evidence: r.evidence })) }, null, 2);
  },
});
