import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf, projectOf, type Ctx } from '../../core/context.ts';
import { readOnly, updates } from '../common.ts';
import { selectRows } from '../../core/sql.ts';

const Publication = z.object({
  enabled: z.boolean(),
  public_url: z.string().describe('The public project view; it answers 404 while publication is off'),
});

function publication(ctx: Ctx, enabled: boolean) {
  const { project, org } = projectOf(ctx);
  return { enabled, public_url: `${ctx.services.baseUrl()}/api/public/orgs/${org.handle}/projects/${project.handle}` };
}

export const getPublication = capability({
  name: 'projects.get_publication',
  title: 'Read whether the project is public',
  description:
    'Says whether the project\'s public view is on and where it is (public_url). The public view shows the project\'s studies, ' +
    'completed interviews, evidence and findings without participant names or e-mail addresses.',
  input: z.strictObject({}),
  output: Publication,
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/publication' },
  async handler(ctx) {
    const { project } = projectOf(ctx);
    const [row] = await selectRows<{ enabled: boolean }>(ctx.services, `SELECT enabled FROM project_publications WHERE project_id = $1`, [project.id]);
    return publication(ctx, row?.enabled ?? false);
  },
});

export const setPublication = capability({
  name: 'projects.set_publication',
  title: 'Turn the project\'s public view on or off',
  description:
    'Turns the public project view on (enabled true) or off. While on, anyone with public_url can read the project\'s studies, ' +
    'completed interviews (as "Participant N"), evidence quotes and findings; participant names and e-mail addresses are never shown. ' +
    'Org owners and admins only.',
  input: z.strictObject({ enabled: z.boolean() }),
  output: Publication,
  annotations: updates,
  scope: 'write',
  access: 'project',
  roles: ['owner', 'admin'],
  rest: { method: 'PATCH', path: 'P/publication' },
  async handler(ctx, { enabled }) {
    const { project } = projectOf(ctx);
    await selectRows(
      ctx.services,
      `INSERT INTO project_publications (project_id, enabled, updated_by) VALUES ($1, $2, $3)
       ON CONFLICT (project_id) DO UPDATE SET enabled = EXCLUDED.enabled, updated_by = EXCLUDED.updated_by, updated_at = now() RETURNING enabled`,
      [project.id, enabled, principalOf(ctx).userId],
    );
    return publication(ctx, enabled);
  },
});
