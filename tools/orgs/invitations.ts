import { z } from 'zod';
import { randomBytes } from 'node:crypto';
import { capability } from '../../core/registry.ts';
import { orgOf, principalOf, type Ctx, type OrgContext } from '../../core/context.ts';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, UnavailableError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, deletes, readOnly, Success } from '../common.ts';
import { Role } from './members-record.ts';
import { sha256 } from '../../auth/agent/tokens.ts';
import { inTransaction } from '../../core/tx.ts';
import { users } from '../account/users.ts';

const DAYS = 14;
const Invitation = z.object({
  id: z.string(),
  org_handle: z.string(),
  email: z.string(),
  role: Role,
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
  expires_at: z.string(),
  last_sent_at: z.string(),
  created_at: z.string(),
});
type Row = { id: string; email: string; role: 'owner' | 'admin' | 'member'; status: 'pending' | 'accepted' | 'revoked'; expires_at: Date; last_sent_at: Date; created_at: Date };
const record = (r: Row, orgHandle: string): z.input<typeof Invitation> => ({
  id: r.id,
  org_handle: orgHandle,
  email: r.email,
  role: r.role,
  status: r.status === 'pending' && r.expires_at.getTime() < Date.now() ? 'expired' : r.status,
  expires_at: r.expires_at.toISOString(),
  last_sent_at: r.last_sent_at.toISOString(),
  created_at: r.created_at.toISOString(),
});

/** Mails the invitation; the link carries a token only its hash of is stored. */
async function send(ctx: Ctx, org: OrgContext, email: string, role: string, token: string): Promise<void> {
  try {
    await ctx.services.mailer.send({
      to: email,
      subject: `You are invited to ${org.name} on Verbatim`,
      text: [
        `You have been invited to join ${org.name} (${org.handle}) on Verbatim as ${role}.`,
        '',
        `To accept, open this link and sign in with this e-mail address: ${ctx.services.baseUrl()}/app/invitation?token=${token}`,
        `The invitation expires in ${DAYS} days.`,
        '',
        `(From a script or an agent: GET /api/invitations/inspect?token=${token}, then POST /api/invitations/accept with { "token": "${token}" }, signed in as this address.)`,
      ].join('\n'),
    });
  } catch {
    throw new UnavailableError('The invitation e-mail could not be sent', { code: 'send_failed', retryable: true, action: 'Check SMTP_URL, then resend the invitation' });
  }
}

export const createInvitation = capability({
  name: 'organizations.invite',
  title: 'Invite someone by e-mail',
  description: 'E-mails an invitation to join the organization with a role. Owners may invite owners; admins invite admins and members.',
  input: z.strictObject({ email: z.email().max(320), role: Role.default('member') }),
  output: z.object({ invitation: Invitation }),
  annotations: creates,
  scope: 'write',
  access: 'org',
  roles: ['owner', 'admin'],
  mcp: false,
  rest: { method: 'POST', path: '/api/orgs/:orgHandle/invitations', status: 201 },
  async handler(ctx, input) {
    const org = orgOf(ctx);
    if (input.role === 'owner' && org.role !== 'owner') throw new ForbiddenError('Only owners can invite owners', { code: 'role_required' });
    const { pool } = ctx.services.db;
    const member = await pool.query(`SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1 AND lower(u.email) = lower($2)`, [org.id, input.email]);
    if (member.rowCount) throw new ConflictError(`${input.email} is already a member`, { code: 'already_member' });
    const token = `inv_${randomBytes(24).toString('base64url')}`;
    const row = await inTransaction(pool, async (sql) => {
      await sql.query(`UPDATE org_invitations SET status = 'revoked', updated_at = now() WHERE organization_id = $1 AND lower(email) = lower($2) AND status = 'pending' AND expires_at < now()`, [org.id, input.email]);
      const { rows } = await sql.query<Row>(
        `INSERT INTO org_invitations (id, organization_id, email, role, token_hash, status, invited_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6, now() + make_interval(days => $7)) ON CONFLICT DO NOTHING RETURNING *`,
        [newId('inv'), org.id, input.email, input.role, sha256(token), principalOf(ctx).userId, DAYS],
      );
      const created = rows[0];
      if (!created) throw new ConflictError(`${input.email} already has a pending invitation; resend it instead`, { code: 'invitation_pending' });
      await send(ctx, org, input.email, input.role, token);
      return created;
    });
    return { invitation: record(row, org.handle) };
  },
});

export const listInvitations = capability({
  name: 'organizations.list_invitations',
  title: 'Invitations of an organization',
  description: 'Invitations sent for the organization, newest first, with their status (pending, accepted, revoked, expired).',
  input: z.strictObject({}),
  output: z.object({ invitations: z.array(Invitation) }),
  annotations: readOnly,
  scope: 'read',
  access: 'org',
  roles: ['owner', 'admin'],
  mcp: false,
  rest: { method: 'GET', path: '/api/orgs/:orgHandle/invitations' },
  async handler(ctx) {
    const org = orgOf(ctx);
    const { rows } = await ctx.services.db.pool.query<Row>(`SELECT * FROM org_invitations WHERE organization_id = $1 ORDER BY created_at DESC`, [org.id]);
    return { invitations: rows.map((r) => record(r, org.handle)) };
  },
});

async function pending(ctx: Ctx, id: string): Promise<Row> {
  const org = orgOf(ctx);
  const { rows } = await ctx.services.db.pool.query<Row>(`SELECT * FROM org_invitations WHERE id = $1 AND organization_id = $2`, [id, org.id]);
  if (!rows[0]) throw new NotFoundError('Invitation not found');
  if (rows[0].status !== 'pending') throw new DomainError(`The invitation is ${rows[0].status}`, { code: 'invitation_closed' });
  return rows[0];
}

export const resendInvitation = capability({
  name: 'organizations.resend_invitation',
  title: 'Resend an invitation',
  description: 'Sends a pending invitation again with a fresh link (the old link stops working) and a fresh expiry.',
  input: z.strictObject({ invitationId: z.string().min(1).max(64) }),
  output: z.object({ invitation: Invitation }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scope: 'write',
  access: 'org',
  roles: ['owner', 'admin'],
  mcp: false,
  rest: { method: 'POST', path: '/api/orgs/:orgHandle/invitations/:invitationId/resend' },
  async handler(ctx, input) {
    const org = orgOf(ctx);
    const inv = await pending(ctx, input.invitationId);
    const token = `inv_${randomBytes(24).toString('base64url')}`;
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const { rows } = await sql.query<Row>(
        `UPDATE org_invitations SET token_hash = $2, last_sent_at = now(), expires_at = now() + make_interval(days => $3), updated_at = now() WHERE id = $1 RETURNING *`,
        [inv.id, sha256(token), DAYS],
      );
      await send(ctx, org, inv.email, inv.role, token);
      return rows[0];
    });
    return { invitation: record(row, org.handle) };
  },
});

export const revokeInvitation = capability({
  name: 'organizations.revoke_invitation',
  title: 'Revoke an invitation',
  description: 'Withdraws a pending invitation; its link stops working.',
  input: z.strictObject({ invitationId: z.string().min(1).max(64) }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'org',
  roles: ['owner', 'admin'],
  mcp: false,
  rest: { method: 'DELETE', path: '/api/orgs/:orgHandle/invitations/:invitationId' },
  async handler(ctx, input) {
    const inv = await pending(ctx, input.invitationId);
    await ctx.services.db.pool.query(`UPDATE org_invitations SET status = 'revoked', updated_at = now() WHERE id = $1`, [inv.id]);
    return { success: true };
  },
});

async function byToken(ctx: Ctx, token: string) {
  const { rows } = await ctx.services.db.pool.query<Row & { organization_id: string; org_handle: string; org_name: string }>(
    `SELECT i.*, o.handle AS org_handle, o.name AS org_name FROM org_invitations i JOIN organizations o ON o.id = i.organization_id WHERE i.token_hash = $1`,
    [sha256(token)],
  );
  if (!rows[0]) throw new NotFoundError('Invitation not found');
  return rows[0];
}

export const inspectInvitation = capability({
  name: 'invitations.inspect',
  title: 'What an invitation offers',
  description: 'Shows the organization, role, invited address and status behind an invitation token, before accepting it.',
  input: z.strictObject({ token: z.string().min(10).max(200) }),
  output: z.object({ invitation: Invitation.extend({ org_name: z.string() }) }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  mcp: false,
  rest: { method: 'GET', path: '/api/invitations/inspect' },
  async handler(ctx, input) {
    const inv = await byToken(ctx, input.token);
    return { invitation: { ...record(inv, inv.org_handle), org_name: inv.org_name } };
  },
});

export const acceptInvitation = capability({
  name: 'invitations.accept',
  title: 'Accept an invitation',
  description: 'Joins the organization with the invited role. The signed-in person must own the invited e-mail address.',
  input: z.strictObject({ token: z.string().min(10).max(200) }),
  output: z.object({ org_handle: z.string(), role: Role }),
  annotations: creates,
  scope: 'write',
  access: 'user',
  mcp: false,
  rest: { method: 'POST', path: '/api/invitations/accept' },
  async handler(ctx, input) {
    const userId = principalOf(ctx).userId;
    const inv = await byToken(ctx, input.token);
    return inTransaction(ctx.services.db.pool, async (sql) => {
      const { rows: locked } = await sql.query<{ status: string; expires_at: Date }>(`SELECT status, expires_at FROM org_invitations WHERE id = $1 FOR UPDATE`, [inv.id]);
      const current = locked[0];
      if (current.status !== 'pending') throw new DomainError(`The invitation is ${current.status}`, { code: 'invitation_closed' });
      if (current.expires_at.getTime() < Date.now()) throw new DomainError('The invitation has expired; ask for a new one', { code: 'invitation_expired' });
      const [user] = await users.select(sql, 'id = $1', [userId]);
      if (!user) throw new Error(`User ${userId} not found`);
      if (user.email.toLowerCase() !== inv.email.toLowerCase()) throw new ForbiddenError('This invitation is for another e-mail address', { code: 'invitation_email_mismatch' });
      await sql.query(
        `INSERT INTO memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, $4) ON CONFLICT (organization_id, user_id) DO NOTHING`,
        [newId('mem'), inv.organization_id, userId, inv.role],
      );
      await sql.query(`UPDATE org_invitations SET status = 'accepted', accepted_by = $2, updated_at = now() WHERE id = $1`, [inv.id, userId]);
      return { org_handle: inv.org_handle, role: inv.role };
    });
  },
});
