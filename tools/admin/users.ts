import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly, Timestamp, isoRequired } from '../common.ts';

const AdminUser = z.object({ id: z.string(), email: z.string(), name: z.string().nullable(), is_admin: z.boolean(), created_at: Timestamp });

export const listUsers = capability({
  name: 'admin.list_users',
  title: 'Users of this server',
  description:
    'Users with their operator (admin) flag, newest first; `email` filters by a part of the address, `admins_only` keeps operators. ' +
    'Operators only. The flag itself is changed with the command line: npm run cli -- admin grant|revoke --email <address>.',
  input: z.strictObject({
    email: z.string().trim().min(1).max(320).optional(),
    admins_only: z.boolean().default(false),
    limit: z.number().int().min(1).max(500).default(100),
  }),
  output: z.object({ users: z.array(AdminUser) }),
  annotations: readOnly,
  scope: 'read',
  access: 'admin',
  mcp: false,
  rest: { method: 'GET', path: '/api/admin/users' },
  async handler(ctx, input) {
    const { rows } = await ctx.services.db.pool.query<{ id: string; email: string; name: string | null; is_admin: boolean; created_at: Date }>(
      `SELECT id, email, name, is_admin, created_at FROM users
        WHERE ($1::text IS NULL OR strpos(lower(email), lower($1)) > 0) AND (NOT $2 OR is_admin)
        ORDER BY created_at DESC, id LIMIT $3`,
      [input.email ?? null, input.admins_only, input.limit],
    );
    return { users: rows.map((r) => ({ ...r, created_at: isoRequired(r.created_at) })) };
  },
});
