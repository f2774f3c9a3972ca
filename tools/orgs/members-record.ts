import { z } from 'zod';
import type { Services } from '../../core/context.ts';
import { Timestamp, isoRequired } from '../common.ts';

export const Role = z.enum(['owner', 'admin', 'member']);

export const Member = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: Role,
  joined_at: Timestamp,
});

export type MemberRecord = z.input<typeof Member>;

/** An org's members, cached until a membership or one of the members changes (migration 0021). */
export async function membersOf(services: Services, orgId: string): Promise<MemberRecord[]> {
  const members = await services.auth.memberLists.get(orgId, async () => {
    const rows = await readMembers(services, orgId);
    return { value: Object.freeze(rows.map((r) => Object.freeze(r))), topics: [`members:${orgId}`, `org:${orgId}`, ...rows.map((r) => `user:${r.user_id}`)] };
  });
  return members ? [...members] : [];
}

/** The members as stored now, for a handler that just changed them (the cache hears of it a moment later). */
export async function readMembers(services: Services, orgId: string): Promise<MemberRecord[]> {
  const { rows } = await services.db.pool.query<{ user_id: string; email: string; name: string | null; role: 'owner' | 'admin' | 'member'; joined_at: Date }>({
    name: 'org-members',
    text: `SELECT u.id AS user_id, u.email, u.name, m.role, m.created_at AS joined_at
             FROM memberships m JOIN users u ON u.id = m.user_id
            WHERE m.organization_id = $1
            ORDER BY m.created_at, u.email`,
    values: [orgId],
  });
  return rows.map((r) => ({
    ...r,
    joined_at: isoRequired(r.joined_at),
  }));
}
