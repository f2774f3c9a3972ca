import type { UserAttrs } from '../../models/index.ts';
import { newId, slugify } from '../../core/ids.ts';
import type { Sql } from '../../core/tx.ts';
import { table } from '../../core/table.ts';
import { freeHandle } from '../common.ts';
import { memberships, organizations } from '../orgs/rows.ts';

/** A `users` row as `pg` reads it. */
export type UserRow = UserAttrs;

export const users = table<UserRow>()('users', ['id', 'email', 'name', 'is_admin', 'personal_org_id', 'onboarding_json', 'created_at', 'updated_at'], ['onboarding_json']);

export interface UserSeed {
  email: string;
  name?: string | null;
  isAdmin?: boolean;
}

/**
 * The user for an e-mail address, created on first sight together with a personal
 * organization they own. Seen again: the name is filled in if it was missing and the
 * admin flag is raised when asked for (never lowered here). Run it in the caller's
 * transaction (`sql`): the user is locked FOR UPDATE.
 */
export async function ensureUser(seed: UserSeed, sql: Sql): Promise<UserRow> {
  const email = seed.email.trim();
  const [existing] = await users.select(sql, 'lower(email) = $1', [email.toLowerCase()], 'FOR UPDATE');
  const user = existing ?? (await users.insert(sql, { id: newId('usr'), email, name: seed.name ?? null, is_admin: seed.isAdmin ?? false }));
  const changes: Partial<UserRow> = {};
  if (existing && seed.name && !existing.name) changes.name = seed.name;
  if (existing && seed.isAdmin && !existing.is_admin) changes.is_admin = true;
  if (!user.personal_org_id) {
    const base = slugify(email.split('@')[0], 'user');
    const handle = await freeHandle(base, async (h) => ((await sql.query(`SELECT 1 FROM organizations WHERE handle = $1 LIMIT 1`, [h])).rowCount ?? 0) > 0);
    const org = await organizations.insert(sql, { id: newId('org'), handle, name: seed.name ? `${seed.name}'s workspace` : `${email}'s workspace`, personal: true });
    await memberships.insert(sql, { id: newId('mem'), organization_id: org.id, user_id: user.id, role: 'owner' });
    changes.personal_org_id = org.id;
  }
  if (Object.keys(changes).length) return users.save(sql, user, changes);
  return user;
}
