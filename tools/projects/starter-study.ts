import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { provisionStarterStudy } from '../studies/starter.ts';
import { inTransaction } from '../../core/tx.ts';

export const provisionStarter = capability({
  name: 'projects.provision_starter_study',
  title: 'Provision the starter study',
  description:
    'Gives a project with no studies one active starter study. Idempotent: when the project already has a study, nothing changes and the outcome is already_present.',
  input: z.strictObject({}),
  output: z.object({ outcome: z.enum(['provisioned', 'already_present']), study_ref: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/starter-study' },
  async handler(ctx) {
    const { project } = projectOf(ctx);
    const result = await inTransaction(ctx.services.db.pool, (sql) => provisionStarterStudy(project.id, sql));
    return { outcome: result.outcome, study_ref: result.study.id };
  },
});
