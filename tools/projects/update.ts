import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { ValidationError } from '../../core/errors.ts';
import { updates } from '../common.ts';
import { Project, ProjectDescription, ProjectName, RepoSlug, projectRecord, writeProject } from './record.ts';

export const updateProject = capability({
  name: 'projects.update',
  title: 'Update a project',
  description: 'Changes a project\'s name, description or repository. Owners and admins only.',
  input: z.strictObject({
    name: ProjectName.optional(),
    description: ProjectDescription.optional(),
    codehost_repo_url: RepoSlug.optional(),
    codehost_default_branch: z.string().trim().min(1).max(255).regex(/^[^\s~^:?*[\\]+$/, 'must be a git branch name').optional(),
  }),
  output: z.object({ project: Project }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'write',
  access: 'project',
  roles: ['owner', 'admin'],
  rest: { method: 'PATCH', path: 'P' },
  async handler(ctx, input) {
    const { project, org } = projectOf(ctx);
    if (Object.keys(input).length === 0) throw new ValidationError('Nothing to update: send at least one field');
    return { project: projectRecord(await writeProject(ctx.services, project, input), org) };
  },
});
