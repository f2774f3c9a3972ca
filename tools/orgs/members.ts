import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { orgOf, principalOf, type OrgContext, type Ctx } from '../../core/context.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, deletes, readOnly, Success, updates } from '../common.ts';
import { Member, Role, membersOf, readMembers } from './members-record.ts';
import { ensureUser } from '../account/users.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import { memberships } from './rows.ts';

export const listMembers = capability({
  name: 'organizations.list_members',
  title: 'List organization members',
  description:
    'Lists the members of an organization with their roles (owner, admin, member). ' +
    'Use it to see who can reach the organization\'s projects, for instance before inviting someone or changing a role.',
  input: z.strictObject({}),
  output: z.object({ members: z.array(Member) }),
  annotations: readOnly,
  scope: 'read',
  access: 'org',
  rest: { method: 'GET', path: '/api/orgs/:orgHandle/members' },
  async handler(ctx) {
    return { members: await membersOf(ctx.services, orgOf(ctx).id) };
  },
});

export const addMember = capability({
  name: 'organizations.add_member',
  title: 'Add an organization member',
  description:
    'Adds a person by e-mail with a role. Owners may grant any role; admins may add admins and members. ' +
    'Someone without an account yet gets one when they first sign in with that address.',
  input: z.strictObject({ email: z.email().max(320), role: Role.default('member') }),
  output: z.object({ member: Member }),
  annotations: creates,
  scope: 'write',
  access: 'org',
  roles: ['owner', 'admin'],
  rest: { method: 'POST', path: '/api/orgs/:orgHandle/members', status: 201 },
  async handler(ctx, input) {
    const org = orgOf(ctx);
    if (input.role === 'owner' && org.role !== 'owner') throw new ForbiddenError('Only owners can add owners', { code: 'role_required' });
    const userId = await inTransaction(ctx.services.db.pool, async (sql) => {
      const user = await ensureUser({ email: input.email }, sql);
      if ((await memberships.select(sql, 'organization_id = $1 AND user_id = $2', [org.id, user.id])).length) {
        throw new ConflictError(`${input.email} is already a member`, { code: 'already_member' });
      }
      await memberships.insert(sql, { id: newId('mem'), organization_id: org.id, user_id: user.id, role: input.role });
      return user.id;
    });
    return { member: await memberOrThrow(ctx, org, userId) };
  },
});

async function memberOrThrow(ctx: Ctx, org: OrgContext, userId: string) {
  const member = (await readMembers(ctx.services, org.id)).find((m) => m.user_id === userId);
  if (!member) throw new NotFoundError('Member not found');
  return member;
}

/** An org always keeps at least one owner. */
async function assertOtherOwner(orgId: string, userId: string, sql: Sql) {
  await sql.query(`SELECT id FROM organizations WHERE id = $1 FOR UPDATE`, [orgId]);
  const { rows } = await sql.query<{ owners: number; is_owner: boolean }>(
    `SELECT count(*)::int AS owners, bool_or(user_id = $2) AS is_owner FROM memberships WHERE organization_id = $1 AND role = 'owner'`,
    [orgId, userId],
  );
  const { owners, is_owner: isOwner } = rows[0];
  if (isOwner && owners <= 1) throw new ConflictError('An organization needs at least one owner', { code: 'last_owner' });
}

export const updateMember = capability({
  name: 'organizations.update_member',
  title: 'Change a member\'s role',
  description: 'Changes the role of an organization member. Owners only; the last owner cannot be demoted.',
  input: z.strictObject({ userId: z.string().min(1).max(64), role: Role }),
  output: z.object({ member: Member }),
  annotations: updates,
  scope: 'write',
  access: 'org',
  roles: ['owner'],
  rest: { method: 'PATCH', path: '/api/orgs/:orgHandle/members/:userId' },
  async handler(ctx, input) {
    const org = orgOf(ctx);
    await inTransaction(ctx.services.db.pool, async (sql) => {
      const [membership] = await memberships.select(sql, 'organization_id = $1 AND user_id = $2', [org.id, input.userId]);
      if (!membership) throw new NotFoundError('Member not found');
      if (input.role !== 'owner') await assertOtherOwner(org.id, input.userId, sql);
      if (membership.role !== input.role) await memberships.update(sql, membership.id, { role: input.role });
    });
    return { member: await memberOrThrow(ctx, org, input.userId) };
  },
});

export const removeMember = capability({
  name: 'organizations.remove_member',
  title: 'Remove an organization member',
  description: 'Removes a member from an organization. Owners and admins; admins cannot remove owners; the last owner stays. Anyone may leave.',
  input: z.strictObject({ userId: z.string().min(1).max(64) }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'org',
  rest: { method: 'DELETE', path: '/api/orgs/:orgHandle/members/:userId' },
  async handler(ctx, input) {
    const org = orgOf(ctx);
    const self = principalOf(ctx).userId === input.userId;
    await inTransaction(ctx.services.db.pool, async (sql) => {
      const [membership] = await memberships.select(sql, 'organization_id = $1 AND user_id = $2', [org.id, input.userId]);
      if (!membership) throw new NotFoundError('Member not found');
      if (!self && org.role === 'member') throw new ForbiddenError('Only owners or admins can remove members', { code: 'role_required' });
      if (!self && membership.role === 'owner' && org.role !== 'owner') throw new ForbiddenError('Only owners can remove owners', { code: 'role_required' });
      if (org.personal && membership.role === 'owner') throw new ConflictError('The owner of a personal workspace cannot leave it', { code: 'personal_owner' });
      await assertOtherOwner(org.id, input.userId, sql);
      await sql.query(`DELETE FROM memberships WHERE id = $1`, [membership.id]);
    });
    return { success: true };
  },
});
