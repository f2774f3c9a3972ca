import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.ts';
import type { UserPrincipal } from '../../core/context.ts';
import { newId } from '../../core/ids.ts';
import { readOnly, updates } from '../common.ts';
import { Project, projectRecord, writeProject } from '../projects/record.ts';
import { codehostApp, codehostClient, octokitModule, providerError } from './apps.ts';
import { beginFlow, finishFlow } from './flows.ts';
import { projects } from '../projects/record.ts';
import { inTransaction } from '../../core/tx.ts';
import { findOrganization } from './organization.ts';

const managers = ['owner', 'admin'] as ('owner' | 'admin')[];
const Installation = z.object({ installation_id: z.string(), account_login: z.string().nullable(), attached: z.boolean() });

async function orgInstallations(services: Parameters<typeof codehostApp>[0], orgId: string) {
  const { rows } = await services.db.pool.query<{ installation_id: string; account_login: string | null }>(
    `SELECT installation_id, account_login FROM codehost_installations WHERE organization_id = $1 ORDER BY created_at`,
    [orgId],
  );
  return rows;
}

export const codehostInstall = capability({
  name: 'codehost.install',
  title: 'Begin installing the code-host app',
  description: 'Returns the code-host address where a person installs the app on their account or organization and picks repositories; it comes back to /api/codehost/app/setup, which attaches the installation to this project.',
  input: z.strictObject({}),
  output: z.object({ install_url: z.string() }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  roles: managers,
  mcp: false,
  rest: { method: 'GET', path: 'P/codehost-app/install' },
  async handler(ctx) {
    const app = codehostApp(ctx.services);
    const { project, org } = projectOf(ctx);
    const state = await beginFlow(ctx.services, 'codehost_install', { organization_id: org.id, project_id: project.id, user_id: (ctx.principal as { userId: string }).userId, verifier: null });
    const url = new URL(app.installUrl);
    url.searchParams.set('state', state);
    return { install_url: url.toString() };
  },
});

/**
 * The installation must be one the person can reach on the code host (their linked account
 * lists it), so nobody attaches another customer's installation by its number.
 */
async function checkInstallationIsTheirs(services: Parameters<typeof codehostApp>[0], userId: string, installationId: string): Promise<void> {
  const { rows } = await services.db.pool.query<{ token_ciphertext: string | null; token_key_id: string | null }>(
    `SELECT token_ciphertext, token_key_id FROM user_identities WHERE user_id = $1 AND provider = 'codehost'`,
    [userId],
  );
  const row = rows[0];
  if (!row?.token_ciphertext || !row.token_key_id) {
    throw new ForbiddenError('Link your code-host account first, so we can see which installations are yours', { code: 'codehost_identity_required', action: 'GET /api/auth/codehost/login, then install the app again' });
  }
  const token = services.secrets.open({ keyId: row.token_key_id, ciphertext: row.token_ciphertext }, userId);
  const { apiUrl } = codehostApp(services);
  const { Octokit } = await octokitModule();
  const octokit = new Octokit({ baseUrl: apiUrl, auth: token, request: { timeout: 10_000 } });
  let installations: Array<{ id: number }>;
  try {
    installations = await octokit.paginate(octokit.rest.apps.listInstallationsForAuthenticatedUser, { per_page: 100 });
  } catch (err) {
    throw providerError('codehost', err);
  }
  if (!installations.some((i) => String(i.id) === installationId)) {
    throw new ForbiddenError('Your code-host account cannot reach that installation', { code: 'installation_not_yours', action: 'Install the app from GET P/codehost-app/install with an account that manages it' });
  }
}

export const codehostSetup = capability({
  name: 'codehost.setup',
  title: 'Code-host app installed (callback)',
  description: 'Where the code host sends the person back after installing the app: checks the installation is theirs, records it for the organization and attaches it to the project the install began from.',
  input: z.strictObject({
    installation_id: z.string().regex(/^\d{1,20}$/, 'must be a number'),
    setup_action: z.string().max(40).optional(),
    state: z.string().min(1).max(200),
  }),
  output: z.object({
    installation_id: z.string(),
    account_login: z.string().nullable(),
    project_ref: z.string().nullable(),
    workspace_url: z.string().describe('Where a browser is sent next: the project\'s settings in the workspace'),
  }),
  annotations: updates,
  scope: 'write',
  access: 'user',
  mcp: false,
  rest: { method: 'GET', path: '/api/codehost/app/setup', redirect: 'workspace_url' },
  async handler(ctx, input) {
    const { services } = ctx;
    const userId = (ctx.principal as UserPrincipal).userId;
    const flow = await finishFlow(services, 'codehost_install', input.state, userId);
    await checkInstallationIsTheirs(services, userId, input.installation_id);
    const { rows: elsewhere } = await services.db.pool.query(`SELECT 1 FROM codehost_installations WHERE installation_id = $1 AND organization_id <> $2`, [input.installation_id, flow.organization_id]);
    if (elsewhere.length) throw new ConflictError('That installation belongs to another organization here', { code: 'installation_attached_elsewhere' });
    const installation = await (await codehostClient(services)).rest.apps.getInstallation({ installation_id: Number(input.installation_id) }).catch((err) => {
      throw providerError('codehost', err);
    });
    const account = installation.data.account as { login?: string; slug?: string } | null;
    const login = account?.login ?? account?.slug ?? null;
    return inTransaction(services.db.pool, async (sql) => {
      await sql.query(
        `INSERT INTO codehost_installations (id, organization_id, installation_id, account_login, created_by) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (organization_id, installation_id) DO UPDATE SET account_login = EXCLUDED.account_login`,
        [newId('chi'), flow.organization_id, input.installation_id, login, flow.user_id],
      );
      const [project] = flow.project_id ? await projects.select(sql, 'id = $1', [flow.project_id]) : [];
      if (project) await projects.save(sql, project, { codehost_installation_id: input.installation_id });
      const org = project ? await findOrganization(sql, project.organization_id) : undefined;
      const projectRef = project && org ? `${org.handle}/${project.handle}` : null;
      const workspace_url = `${services.baseUrl()}/app/${projectRef ? `p/${projectRef}/settings` : 'projects'}`;
      return { installation_id: input.installation_id, account_login: login, project_ref: projectRef, workspace_url };
    });
  },
});

export const codehostInstallations = capability({
  name: 'codehost.installations',
  title: 'Code-host installations',
  description:
    'Installations of the code-host app this organization has made, which its projects can attach. ' +
    'Use it to find the installation_id for codehost.select_installation; when the list is empty, a person installs the app from GET P/codehost-app/install (REST, in a browser).',
  input: z.strictObject({}),
  output: z.object({ installations: z.array(Installation) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/codehost-app/installations' },
  async handler(ctx) {
    const { project, org } = projectOf(ctx);
    const rows = await orgInstallations(ctx.services, org.id);
    return { installations: rows.map((r) => ({ ...r, attached: r.installation_id === project.codehost_installation_id })) };
  },
});

export const codehostSelectInstallation = capability({
  name: 'codehost.select_installation',
  title: 'Attach a code-host installation',
  description:
    'Attaches one of the organization\'s app installations to this project; its repositories become selectable. ' +
    'Use it when the app is installed (see codehost.installations) but this project has no installation yet; then pick a repository with codehost.repos and codehost.select_repo.',
  input: z.strictObject({ installation_id: z.string().regex(/^\d{1,20}$/, 'must be a number') }),
  output: z.object({ project: Project }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  roles: managers,
  rest: { method: 'POST', path: 'P/codehost-app/select-installation' },
  async handler(ctx, input) {
    const { project, org } = projectOf(ctx);
    if (!(await orgInstallations(ctx.services, org.id)).some((r) => r.installation_id === input.installation_id)) {
      throw new NotFoundError('installation_id: this organization has no such installation', { action: 'Install the app with GET P/codehost-app/install first' });
    }
    const changes = { codehost_installation_id: input.installation_id, ...(project.codehost_installation_id !== input.installation_id ? { codehost_repo_url: null } : {}) };
    return { project: projectRecord(await writeProject(ctx.services, project, changes), org) };
  },
});

async function installationRepos(ctx: Parameters<typeof projectOf>[0]) {
  const { project } = projectOf(ctx);
  if (!project.codehost_installation_id) throw new ValidationError('No code-host installation is attached to this project', { code: 'codehost_not_attached', action: 'POST P/codehost-app/select-installation first' });
  const octokit = await codehostClient(ctx.services, project.codehost_installation_id);
  try {
    const repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 });
    return repos.map((r) => ({ full_name: r.full_name, default_branch: r.default_branch ?? 'main', private: r.private, html_url: r.html_url }));
  } catch (err) {
    throw providerError('codehost', err);
  }
}

export const codehostRepos = capability({
  name: 'codehost.repos',
  title: 'Repositories of the attached installation',
  description:
    'Repositories the project\'s code-host installation can reach; one of them receives the project\'s issues. ' +
    'Use it once an installation is attached, to pick the owner/name to pass to codehost.select_repo.',
  input: z.strictObject({}),
  output: z.object({ repos: z.array(z.object({ full_name: z.string(), default_branch: z.string(), private: z.boolean(), html_url: z.string(), selected: z.boolean() })) }),
  annotations: { ...readOnly, openWorldHint: true },
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/codehost-app/repos' },
  async handler(ctx) {
    const { project } = projectOf(ctx);
    return { repos: (await installationRepos(ctx)).map((r) => ({ ...r, selected: r.full_name === project.codehost_repo_url })) };
  },
});

export const codehostSelectRepo = capability({
  name: 'codehost.select_repo',
  title: 'Bind the project to a repository',
  description:
    'Chooses the repository (owner/name) of the attached installation that receives this project\'s issues. ' +
    'Use it once an installation is attached, with a repository from codehost.repos; findings.send and work.push with provider github deliver there.',
  input: z.strictObject({ repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name') }),
  output: z.object({ project: Project }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  roles: managers,
  rest: { method: 'POST', path: 'P/codehost-app/select-repo' },
  async handler(ctx, input) {
    const { project, org } = projectOf(ctx);
    const repo = (await installationRepos(ctx)).find((r) => r.full_name.toLowerCase() === input.repo.toLowerCase());
    if (!repo) throw new NotFoundError('repo: the attached installation cannot reach that repository');
    const changes = { codehost_repo_url: repo.full_name, codehost_default_branch: repo.default_branch };
    return { project: projectRecord(await writeProject(ctx.services, project, changes), org) };
  },
});
