import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { StudyStatus } from './schemas.ts';
import { Study, StudyIdParam, findStudy, projectRefOf, projectStudies, studyRecord } from './record.ts';

export const listStudies = capability({
  name: 'studies.list',
  title: 'List studies',
  description:
    'Lists the studies of a project, oldest first, optionally only those with one status (draft, active, paused, closed). ' +
    'Use it to find a study\'s ref or handle for the other study tools.',
  input: z.strictObject({ status: StudyStatus.optional() }),
  output: z.object({ studies: z.array(Study) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/studies' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const rows = await (input.status
      ? projectStudies(ctx.services.db.pool, project.id, 'status = $2', [input.status])
      : projectStudies(ctx.services.db.pool, project.id));
    const ref = projectRefOf(ctx);
    return { studies: rows.map((s) => studyRecord(s, ref)) };
  },
});

export const getStudy = capability({
  name: 'studies.get',
  title: 'Read a study',
  description:
    'Returns one study by ref or handle: script, goals, invitation and visibility with their validity, recruitment URL and intake. ' +
    'Use it before changing a study (it gives the version that studies.update takes as expected_version) or to get its recruitment link.',
  input: z.strictObject({ studyId: StudyIdParam }),
  output: z.object({ study: Study }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/studies/:studyId' },
  async handler(ctx, input) {
    return { study: studyRecord(await findStudy(ctx, input.studyId), projectRefOf(ctx)) };
  },
});
