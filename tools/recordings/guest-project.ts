import type { OrgContext } from '../../core/context.ts';
import { projects, type ProjectRow } from '../projects/record.ts';
import { newId, newSecret, slugify } from '../../core/ids.ts';
import { freeHandle } from '../common.ts';
import { provisionStarterStudy } from '../studies/starter.ts';
import type { Sql } from '../../core/tx.ts';

export const GUEST_PROJECT_NAME = 'Guest recordings';

/**
 * The organization's fixed project for guest recordings, made (with its starter study, like
 * any project) on first use. The org row is locked so two first uses make one project.
 */
export async function guestProject(org: OrgContext, sql: Sql): Promise<ProjectRow> {
  const { rows: [locked] } = await sql.query<{ guest_project_id: string | null }>(`SELECT guest_project_id FROM organizations WHERE id = $1 FOR UPDATE`, [org.id]);
  const [existing] = locked?.guest_project_id ? await projects.select(sql, 'id = $1 AND organization_id = $2', [locked.guest_project_id, org.id]) : [];
  if (existing) return existing;
  const taken = async (handle: string) => (await projects.select(sql, 'organization_id = $1 AND handle = $2', [org.id, handle])).length > 0;
  const project = await projects.insert(sql, {
    id: newId('prj'),
    organization_id: org.id,
    handle: await freeHandle(slugify(GUEST_PROJECT_NAME), taken),
    name: GUEST_PROJECT_NAME,
    description: 'Screen recordings made by guests from website recording invitations.',
    public_key: newSecret('pk', 18),
  });
  await provisionStarterStudy(project.id, sql);
  await sql.query(`UPDATE organizations SET guest_project_id = $2, updated_at = now() WHERE id = $1`, [org.id, project.id]);
  return project;
}
