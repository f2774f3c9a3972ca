import type { Transaction } from 'sequelize';
import type { Models, StudyRow } from '../../models/index.ts';
import { newId } from '../../core/ids.ts';

export const STARTER_HANDLE = 'starter-study';

import { starterGoals, starterInvitation, starterScript } from './starter-template.ts';

export { starterGoals, starterInvitation, starterScript };

export async function provisionStarterStudy(
  models: Models,
  projectId: string,
  transaction: Transaction,
): Promise<{ outcome: 'provisioned' | 'already_present'; study: StudyRow }> {
  // Serialise concurrent provisioning of the same project.
  await models.Project.findByPk(projectId, { transaction, lock: transaction.LOCK.UPDATE });
  const existing = await models.Study.findOne({ where: { project_id: projectId }, order: [['created_at', 'ASC']], transaction });
  if (existing) return { outcome: 'already_present', study: existing };
  const study = await models.Study.create(
    {
      id: newId('std'),
      project_id: projectId,
      handle: STARTER_HANDLE,
      title: 'Getting to know your users',
      description: 'A starter study: a short conversation about what people try to get done and where the product gets in their way.',
      status: 'active',
      goals_json: JSON.stringify(starterGoals),
      script_json: JSON.stringify(starterScript),
      invitation_json: structuredClone(starterInvitation) as Record<string, unknown>,
      settings_json: null,
    },
    { transaction },
  );
  return { outcome: 'provisioned', study };
}
