import type { Sql } from '../../core/tx.ts';
import type { OrganizationAttrs } from '../../models/index.ts';

/** The organization's id and handle, as a plain row (undefined when there is none). */
export async function findOrganization(sql: Sql, id: string): Promise<Pick<OrganizationAttrs, 'id' | 'handle'> | undefined> {
  const { rows } = await sql.query<Pick<OrganizationAttrs, 'id' | 'handle'>>(`SELECT id, handle FROM organizations WHERE id = $1`, [id]);
  return rows[0];
}
