import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { Project, projectRecord } from './record.ts';
import { Member, membersOf } from '../orgs/members-record.ts';

export const getProject = capability({
  name: 'projects.get',
  title: 'Read a project',
  description:
    'Returns a project with its members and their roles. ' +
    'Use it to check a project\'s details and who has access; projects.overview summarises its research.',
  input: z.strictObject({}),
  output: z.object({ project: Project, members: z.array(Member) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P' },
  async handler(ctx) {
    const { project, org } = projectOf(ctx);
    return { project: projectRecord(project, org), members: await membersOf(ctx.services, org.id) };
  },
});
