import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { orgOf } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { Project, projectRecord, projects } from './record.ts';

export const listProjects = capability({
  name: 'projects.list',
  title: 'List projects',
  description: 'Lists the projects of an organization the caller belongs to, newest first. Each has a project_ref to pass as projectRef.',
  input: z.strictObject({}),
  output: z.object({ projects: z.array(Project) }),
  annotations: readOnly,
  scope: 'read',
  access: 'org',
  rest: { method: 'GET', path: '/api/orgs/:orgHandle/projects' },
  async handler(ctx) {
    const org = orgOf(ctx);
    const rows = await projects.select(ctx.services.db.pool, 'organization_id = $1', [org.id], 'ORDER BY created_at DESC');
    return { projects: rows.map((p) => projectRecord(p, org)) };
  },
});
