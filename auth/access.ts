import type { OrgContext, UserPrincipal, Services } from '../core/context.ts';
import type { ProjectRow, Role } from '../models/index.ts';
import { ForbiddenError, NotFoundError } from '../core/errors.ts';

/**
 * The caller's org by handle. A non-member gets the same 404 as a missing org, so a
 * response never confirms that another organisation exists.
 */
export async function resolveOrg(services: Services, principal: UserPrincipal, orgHandle: string): Promise<OrgContext> {
  const { rows } = await services.db.pool.query<OrgContext>({
    name: 'resolve-org',
    text: `SELECT o.id, o.handle, o.name, o.personal, m.role
             FROM organizations o JOIN memberships m ON m.organization_id = o.id AND m.user_id = $2
            WHERE o.handle = $1`,
    values: [orgHandle, principal.userId],
  });
  const org = rows[0];
  if (!org) throw new NotFoundError('Organization not found');
  return org;
}

export async function resolveProject(
  services: Services,
  principal: UserPrincipal,
  orgHandle: string,
  projectHandle: string,
): Promise<{ org: OrgContext; project: ProjectRow }> {
  // Hot path of every project route: one prepared statement resolves membership and project.
  const { rows } = await services.db.pool.query<Record<string, unknown>>({
    name: 'resolve-project',
    text: `SELECT p.*, o.id AS org__id, o.handle AS org__handle, o.name AS org__name, o.personal AS org__personal, m.role AS org__role
             FROM organizations o
             JOIN memberships m ON m.organization_id = o.id AND m.user_id = $2
             LEFT JOIN projects p ON p.organization_id = o.id AND p.handle = $3
            WHERE o.handle = $1`,
    values: [orgHandle, principal.userId, projectHandle],
  });
  const row = rows[0];
  if (!row) throw new NotFoundError('Organization not found');
  if (!row.id) throw new NotFoundError('Project not found');
  const { org__id, org__handle, org__name, org__personal, org__role, ...projectFields } = row;
  const org: OrgContext = {
    id: org__id as string,
    handle: org__handle as string,
    name: org__name as string,
    personal: org__personal as boolean,
    role: org__role as Role,
  };
  const project = services.models.Project.build(projectFields as never, { isNewRecord: false, raw: true });
  return { org, project };
}

export function requireRole(org: OrgContext, roles: Role[] | undefined, what: string): void {
  if (roles && !roles.includes(org.role)) {
    throw new ForbiddenError(`Only ${roles.join(' or ')} members of the organization can ${what}`, { code: 'role_required' });
  }
}
