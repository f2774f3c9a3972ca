import { z } from 'zod';
import { principalOf, type Ctx, type OrgContext } from '../../core/context.ts';
import { ForbiddenError, NotFoundError } from '../../core/errors.ts';
import { resolveOrg } from '../../auth/access.ts';
import { Handle } from '../common.ts';

export const OrgParam = Handle.optional().describe('Handle of an organization you belong to; default: your personal organization');

export const Paging = {
  limit: z.number().int().min(1).max(100).default(50),
  offset: z.number().int().min(0).default(0),
};

/** The organization a billing call is about: `org` when given (members only), else the caller's personal org. */
export async function billingOrg(ctx: Ctx, handle: string | undefined): Promise<OrgContext> {
  const user = principalOf(ctx);
  if (handle) return resolveOrg(ctx.services, user, handle);
  const [org] = (await ctx.services.db.pool.query<OrgContext>(
    `SELECT o.id, o.handle, o.name, o.personal, m.role
       FROM users u
       JOIN organizations o ON o.id = u.personal_org_id
       JOIN memberships m ON m.organization_id = o.id AND m.user_id = u.id
      WHERE u.id = $1`,
    [user.userId],
  )).rows;
  if (!org) throw new NotFoundError('You have no personal organization', { action: 'Pass org=<handle> of an organization you belong to' });
  return org;
}

export const canManageCredits = (org: OrgContext) => org.role === 'owner' || org.role === 'admin';

export function requireManager(org: OrgContext, what: string): void {
  if (!canManageCredits(org)) throw new ForbiddenError(`Only owners or admins of ${org.handle} can ${what}`, { code: 'role_required' });
}
