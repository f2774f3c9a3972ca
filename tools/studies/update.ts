import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { ConflictError, ValidationError } from '../../core/errors.ts';
import { updates } from '../common.ts';
import { StudyStatus } from './schemas.ts';
import { PLACEMENT_FIELDS, columnsFor, studyFields } from './fields.ts';
import { checkPlacement, checkScript, checkTransition } from './rules.ts';
import { Study, StudyIdParam, findStudy, lockProject, projectRefOf, studies, studyColumns, studyRecord } from './record.ts';
import { inTransaction } from '../../core/tx.ts';

export const updateStudy = capability({
  name: 'studies.update',
  title: 'Update a study',
  description:
    'Changes a study: title, goals, script, settings, invitation, visibility, origins, selectors, intake or status ' +
    '(draft → active/closed, active → paused/closed, paused → active/closed, closed → draft). Send expected_version (from the study) ' +
    'to refuse the change if someone else changed the study meanwhile.',
  input: z.strictObject({
    studyId: StudyIdParam,
    expected_version: z.number().int().min(1).optional().describe('The version you read; a different current version refuses the update'),
    title: z.string().trim().min(1).max(200).optional(),
    status: StudyStatus.optional(),
    ...studyFields,
  }),
  output: z.object({ study: Study }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'PATCH', path: 'P/studies/:studyId' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const { studyId, expected_version, ...changes } = input;
    if (Object.keys(changes).length === 0) throw new ValidationError('Nothing to update: send at least one field');
    const touchesPlacement = PLACEMENT_FIELDS.some((f) => f in changes);
    const study = await inTransaction(ctx.services.db.pool, async (sql) => {
      if (touchesPlacement) await lockProject(sql, project.id);
      const row = await findStudy(ctx, studyId, sql, true);
      if (expected_version !== undefined && row.version !== expected_version) {
        throw new ConflictError(`The study changed since version ${expected_version} (now ${row.version})`, {
          code: touchesPlacement ? 'study_placement_changed' : 'study_update_changed',
          retryable: true,
          action: 'Read the study again and re-apply your change to the current version',
        });
      }
      if (changes.status) checkTransition(row.status, changes.status);
      if (changes.script !== undefined || changes.goals !== undefined) {
        checkScript(changes.script ?? JSON.parse(row.script_json ?? 'null'), changes.goals);
      }
      const cols = await columnsFor(project.id, changes, sql);
      const saved = (await studies.update(sql, row.id, studyColumns({ ...cols, ...(changes.title ? { title: changes.title } : {}), ...(changes.status ? { status: changes.status } : {}), version: row.version + 1 })))!;
      if (touchesPlacement) await checkPlacement(saved, sql);
      return saved;
    });
    return { study: studyRecord(study, projectRefOf(ctx)) };
  },
});
