import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { orgOf, principalOf } from '../../core/context.ts';
import { newId, newSecret, slugify } from '../../core/ids.ts';
import { ConflictError } from '../../core/errors.ts';
import { creates, freeHandle, Handle, RESERVED_HANDLES } from '../common.ts';
import { Project, ProjectDescription, ProjectName, RepoSlug, projectRecord, projects } from './record.ts';
import { provisionStarterStudy } from '../studies/starter.ts';
import { inTransaction } from '../../core/tx.ts';

export const createProject = capability({
  name: 'projects.create',
  title: 'Create a project',
  description:
    'Creates a research project in the organization and, in the same step, one active starter study with a ready-to-run script. ' +
    'Returns the project with its project_ref (use it as projectRef) and its widget SDK key (public_key).',
  input: z.strictObject({
    name: ProjectName,
    description: ProjectDescription.optional(),
    codehost_repo_url: RepoSlug.optional().describe('Repository as "owner/repo"'),
    handle: Handle.optional().describe('URL handle; derived from the name when omitted'),
  }),
  output: z.object({ project: Project }),
  annotations: creates,
  scope: 'write',
  access: 'org',
  rest: { method: 'POST', path: '/api/orgs/:orgHandle/projects', status: 201 },
  async handler(ctx, input) {
    const org = orgOf(ctx);
    principalOf(ctx);
    const { db } = ctx.services;
    if (input.handle && RESERVED_HANDLES.has(input.handle)) {
      throw new ConflictError(`The handle "${input.handle}" is reserved`, { code: 'handle_reserved' });
    }
    const project = await inTransaction(db.pool, async (sql) => {
      const taken = async (handle: string) => (await projects.select(sql, 'organization_id = $1 AND handle = $2', [org.id, handle])).length > 0;
      const handle = input.handle ?? (await freeHandle(slugify(input.name, 'project'), taken));
      if (input.handle && (await taken(handle))) {
        throw new ConflictError(`A project with the handle "${handle}" already exists in this organization`, { code: 'handle_taken' });
      }
      const created = await projects.insert(sql, {
        id: newId('prj'),
        organization_id: org.id,
        handle,
        name: input.name,
        description: input.description ?? null,
        codehost_repo_url: input.codehost_repo_url ?? null,
        public_key: newSecret('pk', 18),
      });
      await provisionStarterStudy(created.id, sql);
      return created;
    });
    return { project: projectRecord(project, org) };
  },
});
