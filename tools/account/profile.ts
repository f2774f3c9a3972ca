import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf, type Ctx } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { readOnly, updates, Timestamp, isoRequired } from '../common.ts';

const Profile = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  personal_org_handle: z.string().nullable().describe('The default workspace'),
  is_admin: z.boolean(),
  identities: z.array(z.object({ provider: z.enum(['codehost', 'tracker']), login: z.string().nullable(), linked_at: Timestamp })).describe('Linked code-host and tracker accounts'),
  created_at: Timestamp,
});

async function profileOf(ctx: Ctx): Promise<z.input<typeof Profile>> {
  const { pool } = ctx.services.db;
  const { rows } = await pool.query<Omit<z.input<typeof Profile>, 'identities' | 'created_at'> & { created_at: Date }>(
    `SELECT u.id, u.email, u.name, u.is_admin, u.created_at, o.handle AS personal_org_handle
       FROM users u LEFT JOIN organizations o ON o.id = u.personal_org_id WHERE u.id = $1`,
    [principalOf(ctx).userId],
  );
  const row = rows[0];
  if (!row) throw new NotFoundError('User not found');
  const { rows: ids } = await pool.query<{ provider: 'codehost' | 'tracker'; login: string | null; created_at: Date }>(`SELECT provider, login, created_at FROM user_identities WHERE user_id = $1 ORDER BY provider`, [row.id]);
  const identities = ids.map((i) => ({ provider: i.provider, login: i.login, linked_at: isoRequired(i.created_at) }));
  return { ...row, identities, created_at: isoRequired(row.created_at) };
}

export const getProfile = capability({
  name: 'user.get_profile',
  title: 'Read my profile',
  description:
    "The caller's profile, including personal_org_handle, the default workspace. " +
    "Use it to find the caller's personal workspace (its organization handle) or the name teammates see.",
  input: z.strictObject({}),
  output: z.object({ profile: Profile }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  rest: { method: 'GET', path: '/api/user/profile' },
  async handler(ctx) {
    return { profile: await profileOf(ctx) };
  },
});

export const updateProfile = capability({
  name: 'user.update_profile',
  title: 'Update my profile',
  description:
    "Changes the caller's display name. " +
    "Use it when the person asks to be shown under another name; teammates see it in member lists.",
  input: z.strictObject({ name: z.string().trim().min(1).max(120) }),
  output: z.object({ profile: Profile }),
  annotations: updates,
  scope: 'write',
  access: 'user',
  rest: { method: 'PATCH', path: '/api/user/profile' },
  async handler(ctx, input) {
    await ctx.services.db.pool.query(`UPDATE users SET name = $2, updated_at = now() WHERE id = $1`, [principalOf(ctx).userId, input.name]);
    return { profile: await profileOf(ctx) };
  },
});
