import { Sequelize, type Transaction } from 'sequelize';
import type { Models, UserRow } from '../../models/index.ts';
import { newId, slugify } from '../../core/ids.ts';
import { freeHandle } from '../common.ts';

export interface UserSeed {
  email: string;
  name?: string | null;
  isAdmin?: boolean;
}

/**
 * The user for an e-mail address, created on first sight together with a personal
 * organization they own. Seen again: the name is filled in if it was missing and the
 * admin flag is raised when asked for (never lowered here).
 */
export async function ensureUser(models: Models, seed: UserSeed, transaction: Transaction): Promise<UserRow> {
  const email = seed.email.trim();
  const existing = await models.User.findOne({
    where: Sequelize.where(Sequelize.fn('lower', Sequelize.col('email')), email.toLowerCase()),
    transaction,
    lock: transaction.LOCK.UPDATE,
  });
  const user =
    existing ??
    (await models.User.create({ id: newId('usr'), email, name: seed.name ?? null, is_admin: seed.isAdmin ?? false }, { transaction }));
  const changes: Partial<UserRow> = {};
  if (existing && seed.name && !existing.name) changes.name = seed.name;
  if (existing && seed.isAdmin && !existing.is_admin) changes.is_admin = true;
  if (!user.personal_org_id) {
    const base = slugify(email.split('@')[0], 'user');
    const handle = await freeHandle(base, async (h) => (await models.Organization.count({ where: { handle: h }, transaction })) > 0);
    const org = await models.Organization.create(
      { id: newId('org'), handle, name: seed.name ? `${seed.name}'s workspace` : `${email}'s workspace`, personal: true },
      { transaction },
    );
    await models.Membership.create({ id: newId('mem'), organization_id: org.id, user_id: user.id, role: 'owner' }, { transaction });
    changes.personal_org_id = org.id;
  }
  if (Object.keys(changes).length) await user.update(changes, { transaction });
  return user;
}
