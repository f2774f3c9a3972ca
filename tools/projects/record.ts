import { z } from 'zod';
import type { OrgContext, Services } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { ProjectAttrs } from '../../models/index.ts';
import { table } from '../../core/table.ts';
import { Timestamp, isoRequired } from '../common.ts';

/** A `projects` row as `pg` reads it. */
export type ProjectRow = ProjectAttrs;

export const projects = table<ProjectRow>()('projects', [
  'id', 'organization_id', 'handle', 'name', 'description', 'codehost_repo_url', 'codehost_default_branch', 'codehost_installation_id',
  'tracker_team_id', 'public_key', 'created_at', 'updated_at',
]);

export const Project = z
  .object({
    ref: z.string(),
    handle: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    organization_id: z.string(),
    org_handle: z.string().nullable(),
    project_handle: z.string(),
    project_ref: z.string().nullable().describe('"org/project": pass it as projectRef to MCP tools'),
    canonical_path: z.string().nullable().describe('/o/:org/p/:project'),
    can_manage_credits: z.boolean(),
    codehost_repo_url: z.string().nullable(),
    codehost_default_branch: z.string(),
    codehost_installation_id: z.string().nullable(),
    tracker_team_id: z.string().nullable(),
    public_key: z.string().describe('The widget SDK key of the project'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Project' });

export type ProjectRecord = z.input<typeof Project>;

export function projectRecord(project: ProjectAttrs, org: Pick<OrgContext, 'handle' | 'role'>): ProjectRecord {
  return {
    ref: project.id,
    handle: project.handle,
    name: project.name,
    description: project.description,
    organization_id: project.organization_id,
    org_handle: org.handle,
    project_handle: project.handle,
    project_ref: `${org.handle}/${project.handle}`,
    canonical_path: `/o/${org.handle}/p/${project.handle}`,
    can_manage_credits: org.role === 'owner' || org.role === 'admin',
    codehost_repo_url: project.codehost_repo_url,
    codehost_default_branch: project.codehost_default_branch,
    codehost_installation_id: project.codehost_installation_id,
    tracker_team_id: project.tracker_team_id,
    public_key: project.public_key,
    created_at: isoRequired(project.created_at),
    updated_at: isoRequired(project.updated_at),
  };
}

export const ProjectName = z.string().trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters');
export const ProjectDescription = z.string().max(2000, 'must be at most 2000 characters').nullable();
export const RepoSlug = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/, 'must be "owner/repo"')
  .nullable();

/** Writes `changes` to the project's row and answers the row as stored (ctx.project is a plain row). */
export async function writeProject(services: Services, project: ProjectAttrs, changes: Partial<ProjectAttrs>): Promise<ProjectAttrs> {
  const saved = await projects.update(services.db.pool, project.id, changes);
  if (!saved) throw new NotFoundError('Project not found');
  return saved;
}
