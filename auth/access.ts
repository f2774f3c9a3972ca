import type { OrgContext, UserPrincipal, Services } from '../core/context.ts';
import type { ProjectAttrs, Role } from '../models/index.ts';
import { ForbiddenError, NotFoundError } from '../core/errors.ts';

const memberKey = (userId: string, orgHandle: string) => `${userId} ${orgHandle}`;
const memberTopics = (userId: string, org: OrgContext) => [`member:${userId}`, `org:${org.id}`];

function orgOf(row: Record<string, unknown>): OrgContext {
  return { id: row.org__id as string, handle: row.org__handle as string, name: row.org__name as string, personal: row.org__personal as boolean, role: row.org__role as Role };
}

/**
 * The caller's org by handle. A non-member gets the same 404 as a missing org, so a
 * response never confirms that another organisation exists. Memberships are kept in this
 * process until a change to the member or the org is notified (auth/auth-cache.ts).
 */
export async function resolveOrg(services: Services, principal: UserPrincipal, orgHandle: string): Promise<OrgContext> {
  const org = await services.auth.members.get(memberKey(principal.userId, orgHandle), async () => {
    const { rows } = await services.db.pool.query<OrgContext>({
      name: 'resolve-org',
      text: `SELECT o.id, o.handle, o.name, o.personal, m.role
               FROM organizations o JOIN memberships m ON m.organization_id = o.id AND m.user_id = $2
              WHERE o.handle = $1`,
      values: [orgHandle, principal.userId],
    });
    return rows[0] ? { value: Object.freeze(rows[0]), topics: memberTopics(principal.userId, rows[0]) } : null;
  });
  if (!org) throw new NotFoundError('Organization not found');
  return org;
}

/**
 * The caller's org and project, kept per person until a change to the membership, the org or
 * the project is notified (auth/auth-cache.ts). A miss is one prepared statement. The project
 * is a plain frozen row, never a model instance.
 */
export async function resolveProject(
  services: Services,
  principal: UserPrincipal,
  orgHandle: string,
  projectHandle: string,
): Promise<{ org: OrgContext; project: ProjectAttrs }> {
  let memberOnly: OrgContext | null = null;
  const found = await services.auth.projects.get(`${principal.userId} ${orgHandle} ${projectHandle}`, async () => {
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
    if (!row) return null;
    const { org__id, org__handle, org__name, org__personal, org__role, ...fields } = row;
    const org = Object.freeze(orgOf(row));
    if (!fields.id) {
      memberOnly = org;
      return null;
    }
    const project = Object.freeze(fields) as unknown as ProjectAttrs;
    return { value: Object.freeze({ org, project }), topics: [...memberTopics(principal.userId, org), `project:${project.id}`] };
  });
  if (found) return found;
  throw new NotFoundError(memberOnly ? 'Project not found' : 'Organization not found');
}

export function requireRole(org: OrgContext, roles: Role[] | undefined, what: string): void {
  if (roles && !roles.includes(org.role)) {
    throw new ForbiddenError(`Only ${roles.join(' or ')} members of the organization can ${what}`, { code: 'role_required' });
  }
}
