import type { Services } from '../../core/context.ts';

export interface Operator {
  user_id: string;
  email: string;
  name: string | null;
  is_admin: boolean;
}

/** Raises or lowers a user's admin flag by e-mail (case-insensitive); null when no such user exists. */
export async function setAdminFlag(services: Services, email: string, isAdmin: boolean): Promise<Operator | null> {
  const { rows } = await services.db.pool.query<Operator>(
    `UPDATE users SET is_admin = $2, updated_at = now() WHERE lower(email) = lower($1) RETURNING id AS user_id, email, name, is_admin`,
    [email.trim(), isAdmin],
  );
  return rows[0] ?? null;
}

export async function listOperators(services: Services): Promise<Operator[]> {
  const { rows } = await services.db.pool.query<Operator>(`SELECT id AS user_id, email, name, is_admin FROM users WHERE is_admin ORDER BY lower(email)`);
  return rows;
}
