import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { readOnly } from '../common.ts';
import { Organization, orgRecord, orgsOf } from '../orgs/record.ts';
import { users } from './users.ts';

export const SessionUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  is_admin: z.boolean(),
  personal_org_handle: z.string().nullable(),
});

export const getSession = capability({
  name: 'auth.session',
  title: 'Current session',
  description:
    'Who is signed in and which organizations they belong to, with their role in each. ' +
    'Call it first to learn whose account the credential acts for and which organizations, with which roles, it can reach.',
  input: z.strictObject({}),
  output: z.object({
    user: SessionUser,
    memberships: z.array(Organization),
    credential: z.object({ kind: z.string(), scopes: z.array(z.string()).nullable() }),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  rest: { method: 'GET', path: '/api/auth/session' },
  async handler(ctx) {
    const principal = principalOf(ctx);
    const [user] = await users.select(ctx.services.db.pool, 'id = $1', [principal.userId]);
    if (!user) throw new NotFoundError('User not found');
    const orgs = await orgsOf(ctx.services, user.id);
    return {
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        is_admin: user.is_admin,
        personal_org_handle: orgs.find((o) => o.id === user.personal_org_id)?.handle ?? null,
      },
      memberships: orgs.map((o) => orgRecord(o, o.role)),
      credential: { kind: principal.kind, scopes: principal.scopes },
    };
  },
});
