import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { Success, deletes } from '../common.ts';

export const deleteProject = capability({
  name: 'projects.delete',
  title: 'Delete a project',
  description: 'Deletes a project and everything in it: studies, settings and research data. Owners only. Cannot be undone.',
  input: z.strictObject({}),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'project',
  roles: ['owner'],
  rest: { method: 'DELETE', path: 'P' },
  async handler(ctx) {
    const { project } = projectOf(ctx);
    await ctx.services.db.pool.query('DELETE FROM projects WHERE id = $1', [project.id]);
    return { success: true };
  },
});
