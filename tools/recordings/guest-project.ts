import type { Transaction } from 'sequelize';
import type { OrgContext, Services } from '../../core/context.ts';
import type { ProjectRow } from '../../models/index.ts';
import { newId, newSecret, slugify } from '../../core/ids.ts';
import { freeHandle } from '../common.ts';
import { provisionStarterStudy } from '../studies/starter.ts';
import { sqlOf } from '../../core/tx.ts';
import { selectRows } from '../../core/sql.ts';

export const GUEST_PROJECT_NAME = 'Guest recordings';

/**
 * The organization's fixed project for guest recordings, made (with its starter study, like
 * any project) on first use. The org row is locked so two first uses make one project.
 */
export async function guestProject(services: Services, org: OrgContext, transaction: Transaction): Promise<ProjectRow> {
  const { models } = services;
  const [locked] = await selectRows<{ guest_project_id: string | null }>(services, `SELECT guest_project_id FROM organizations WHERE id = $1 FOR UPDATE`, [org.id], transaction);
  const existing = locked?.guest_project_id ? await models.Project.findOne({ where: { id: locked.guest_project_id, organization_id: org.id }, transaction }) : null;
  if (existing) return existing;
  const taken = async (handle: string) => (await models.Project.count({ where: { organization_id: org.id, handle }, transaction })) > 0;
  const project = await models.Project.create(
    {
      id: newId('prj'),
      organization_id: org.id,
      handle: await freeHandle(slugify(GUEST_PROJECT_NAME), taken),
      name: GUEST_PROJECT_NAME,
      description: 'Screen recordings made by guests from website recording invitations.',
      public_key: newSecret('pk', 18),
    },
    { transaction },
  );
  await provisionStarterStudy(project.id, sqlOf(transaction));
  await services.db.sequelize.query(`UPDATE organizations SET guest_project_id = $2, updated_at = now() WHERE id = $1`, { bind: [org.id, project.id], transaction });
  return project;
}
