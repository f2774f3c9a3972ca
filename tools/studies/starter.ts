import type { Sql } from '../../core/tx.ts';
import { newId } from '../../core/ids.ts';
import { lockProject, studies, studyColumns, type StudyRow } from './record.ts';

export const STARTER_HANDLE = 'starter-study';

import { starterGoals, starterInvitation, starterScript } from './starter-template.ts';

export { starterGoals, starterInvitation, starterScript };

/** Runs in the caller's transaction (`sql`): a project being created calls it inside its own. */
export async function provisionStarterStudy(
  projectId: string,
  sql: Sql,
): Promise<{ outcome: 'provisioned' | 'already_present'; study: StudyRow }> {
  // Serialise concurrent provisioning of the same project.
  await lockProject(sql, projectId);
  const [existing] = await studies.select(sql, 'project_id = $1', [projectId], 'ORDER BY created_at ASC LIMIT 1');
  if (existing) return { outcome: 'already_present', study: existing };
  const study = await studies.insert(
    sql,
    studyColumns({
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
    }),
  );
  return { outcome: 'provisioned', study };
}
