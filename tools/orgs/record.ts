import { z } from 'zod';
import type { Role as RoleName } from '../../models/index.ts';
import type { Services } from '../../core/context.ts';
import { Timestamp, isoRequired } from '../common.ts';
import { Role } from './members-record.ts';
import type { OrgRow } from './rows.ts';

export const Organization = z.object({
  id: z.string(),
  handle: z.string(),
  name: z.string(),
  personal: z.boolean().describe('The personal workspace created with the account'),
  role: Role.describe("The caller's role"),
  created_at: Timestamp,
});

export function orgRecord(org: Pick<OrgRow, 'id' | 'handle' | 'name' | 'personal' | 'created_at'>, role: RoleName): z.input<typeof Organization> {
  return { id: org.id, handle: org.handle, name: org.name, personal: org.personal, role, created_at: isoRequired(org.created_at) };
}

/** The caller's organizations with their role, personal workspace first. */
export async function orgsOf(services: Services, userId: string): Promise<Array<OrgRow & { role: RoleName }>> {
  const { rows } = await services.db.pool.query<OrgRow & { role: RoleName }>(
    `SELECT o.id, o.handle, o.name, o.personal, o.created_at, o.updated_at, m.role FROM organizations o JOIN memberships m ON m.organization_id = o.id
      WHERE m.user_id = $1 ORDER BY o.personal DESC, o.created_at`,
    [userId],
  );
  return rows;
}
