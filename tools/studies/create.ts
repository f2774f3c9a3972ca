import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { ConflictError, ValidationError } from '../../core/errors.ts';
import { newId, slugify } from '../../core/ids.ts';
import { creates, freeHandle, Handle } from '../common.ts';
import { StudyStatus } from './schemas.ts';
import { columnsFor, studyFields } from './fields.ts';
import { RESERVED_STUDY_HANDLES, checkHandle, checkPlacement, checkScript } from './rules.ts';
import { Study, lockProject, projectRefOf, studies, studyColumns, studyRecord } from './record.ts';
import { createIntakeRow } from '../intakes/defaults.ts';
import { inTransaction } from '../../core/tx.ts';

export const createStudy = capability({
  name: 'studies.create',
  title: 'Create a study',
  description:
    'Creates a study: a title, research goals and a script (version 2) of speak, observe and talk segments. Optional invitation ' +
    '(how the widget invites people), visibility (which pages and languages), allowed origins, and an intake to screen participants ' +
    '(intake_ref, or auto_create_intake). Starts as a draft unless status is active; an active study must not collide with another ' +
    'active study on the same pages at the same priority.',
  input: z.strictObject({
    title: z.string().trim().min(1).max(200),
    handle: Handle.optional().describe('URL handle; derived from the title when omitted'),
    status: StudyStatus.extract(['draft', 'active']).default('draft'),
    auto_create_intake: z.boolean().default(false).describe('Create a new intake for this study and link it'),
    ...studyFields,
    script: studyFields.script.unwrap(),
  }),
  output: z.object({ study: Study }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/studies', status: 201 },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    if (input.handle) checkHandle(input.handle);
    if (input.auto_create_intake && input.intake_ref) throw new ValidationError('Send either intake_ref or auto_create_intake, not both');
    const goals = input.goals ?? input.script.goals;
    checkScript(input.script, input.goals);
    const study = await inTransaction(ctx.services.db.pool, async (sql) => {
      await lockProject(sql, project.id);
      const taken = async (h: string) => (await sql.query('SELECT 1 FROM studies WHERE project_id = $1 AND handle = $2', [project.id, h])).rows.length > 0;
      if (input.handle && (await taken(input.handle))) {
        throw new ConflictError(`A study with the handle "${input.handle}" already exists in this project`, {
          code: undefined,
          details: { suggestion: await freeHandle(input.handle, taken) },
        });
      }
      const handle = input.handle ?? (await freeHandle(slugify(input.title, 'study'), async (h) => (await taken(h)) || RESERVED_STUDY_HANDLES.has(h)));
      const cols = await columnsFor(project.id, { ...input, goals }, sql);
      if (input.auto_create_intake) {
        cols.intake_id = (await createIntakeRow(project.id, { title: `${input.title} — intake`, auto_managed: true }, sql)).id;
      }
      const row = await studies.insert(sql, studyColumns({
        id: newId('std'),
        project_id: project.id,
        handle,
        title: input.title,
        status: input.status,
        intake_auto_created: input.auto_create_intake,
        ...cols,
      }));
      await checkPlacement(row, sql);
      return row;
    });
    return { study: studyRecord(study, projectRefOf(ctx)) };
  },
});
