import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { ConflictError, DomainError } from '../../core/errors.ts';
import { Success, deletes } from '../common.ts';
import { StudyIdParam, findStudy } from './record.ts';
import { inTransaction } from '../../core/tx.ts';

export const deleteStudy = capability({
  name: 'studies.delete',
  title: 'Delete a study',
  description:
    'Deletes a study that is not active (pause or close it first). Its interviews stay, unlinked. Send expected_version to refuse ' +
    'the delete if the study changed since you read it.',
  input: z.strictObject({
    studyId: StudyIdParam,
    expected_version: z.number().int().min(1).optional(),
  }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'project',
  rest: { method: 'DELETE', path: 'P/studies/:studyId' },
  async handler(ctx, input) {
    await inTransaction(ctx.services.db.pool, async (sql) => {
      const study = await findStudy(ctx, input.studyId, sql, true);
      if (input.expected_version !== undefined && study.version !== input.expected_version) {
        throw new ConflictError(`The study changed since version ${input.expected_version} (now ${study.version})`, {
          code: 'study_delete_changed',
          retryable: true,
          action: 'Read the study again and decide whether to delete the current version',
        });
      }
      if (study.status === 'active') {
        throw new DomainError('An active study cannot be deleted', {
          code: 'active_study_delete_forbidden',
          action: 'Pause or close the study first (studies.update with status paused or closed), then delete it',
        });
      }
      await sql.query('DELETE FROM studies WHERE id = $1', [study.id]);
    });
    return { success: true };
  },
});
