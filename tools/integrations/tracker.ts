import { z } from 'zod';
import { openidClient } from '../../auth/openid.ts';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { AppError, NotFoundError } from '../../core/errors.ts';
import { readOnly, updates, deletes } from '../common.ts';
import { Project, projectRecord, writeProject } from '../projects/record.ts';
import { trackerApp, trackerClient, trackerQuery } from './apps.ts';
import { beginFlow, finishFlow } from './flows.ts';
import { connectionOf, registerWebhook, requireConnection, type Connection } from './tracker-connection.ts';

const managers = ['owner', 'admin'] as ('owner' | 'admin')[];
const TRACKER_SCOPE = 'read,write,issues:create';

async function oauthConfig(ctx: Ctx) {
  const app = trackerApp(ctx.services);
  const oidc = await openidClient();
  const config = new oidc.Configuration({ issuer: new URL(app.authorizeUrl).origin, authorization_endpoint: app.authorizeUrl, token_endpoint: app.tokenUrl }, app.clientId!, app.clientSecret!);
  if (app.tokenUrl.startsWith('http:')) oidc.allowInsecureRequests(config);
  return config;
}
const callbackUrl = (ctx: Ctx) => `${ctx.services.baseUrl()}/api/tracker/callback`;

const ConnectionStatus = z.object({
  connected: z.boolean(),
  workspace_id: z.string().nullable(),
  workspace_name: z.string().nullable(),
  connected_at: z.string().nullable(),
  webhook: z.object({ status: z.enum(['none', 'pending', 'registered', 'failed']), error: z.string().nullable() }),
});
const statusOf = (c: Connection | null): z.input<typeof ConnectionStatus> => ({
  connected: !!c,
  workspace_id: c?.workspace_id ?? null,
  workspace_name: c?.workspace_name ?? null,
  connected_at: c ? new Date(c.connected_at).toISOString() : null,
  webhook: { status: c?.webhook_status ?? 'none', error: c?.webhook_error ?? null },
});

export const trackerConnect = capability({
  name: 'tracker.connect',
  title: 'Begin connecting the tracker',
  description: 'Returns the tracker\'s authorization address (OAuth with PKCE) where an owner or admin connects the organization\'s workspace; it comes back to /api/tracker/callback.',
  input: z.strictObject({}),
  output: z.object({ authorize_url: z.string() }),
  annotations: updates,
  scope: 'write',
  access: 'org',
  roles: managers,
  mcp: false,
  rest: { method: 'GET', path: '/api/orgs/:orgHandle/tracker/connect' },
  async handler(ctx) {
    const config = await oauthConfig(ctx);
    const oidc = await openidClient();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = await beginFlow(ctx.services, 'tracker_connect', { organization_id: ctx.org!.id, project_id: null, user_id: (ctx.principal as { userId: string }).userId, verifier });
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: callbackUrl(ctx), scope: TRACKER_SCOPE, state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', actor: 'app' });
    return { authorize_url: url.href };
  },
});

export const trackerCallback = capability({
  name: 'tracker.callback',
  title: 'Tracker connected (callback)',
  description: 'Where the tracker sends the signed-in person who began the connection back: exchanges the code, stores the workspace token sealed, and registers the webhook.',
  input: z.strictObject({ code: z.string().min(1).max(2000).optional(), state: z.string().min(1).max(200), error: z.string().max(200).optional(), error_description: z.string().max(1000).optional() }),
  output: ConnectionStatus.extend({ workspace_url: z.string().describe('Where a browser is sent next: the workspace') }),
  annotations: updates,
  scope: 'write',
  access: 'user',
  mcp: false,
  rest: { method: 'GET', path: '/api/tracker/callback', redirect: 'workspace_url' },
  async handler(ctx, input) {
    const flow = await finishFlow(ctx.services, 'tracker_connect', input.state, (ctx.principal as { userId: string }).userId);
    if (input.error || !input.code) throw new AppError(400, `The tracker did not authorize the connection: ${input.error_description ?? input.error ?? 'no code'}`, { code: 'tracker_authorization_denied' });
    const url = new URL(callbackUrl(ctx));
    url.searchParams.set('code', input.code);
    url.searchParams.set('state', input.state);
    let token: string;
    try {
      const oidc = await openidClient();
      const tokens = await oidc.authorizationCodeGrant(await oauthConfig(ctx), url, { pkceCodeVerifier: flow.verifier!, expectedState: input.state });
      token = tokens.access_token;
    } catch (err) {
      throw new AppError(502, `The tracker refused the code exchange: ${err instanceof Error ? err.message : 'unknown error'}`, { code: 'tracker_error', retryable: false, action: 'Start the connection again' });
    }
    const who = await trackerQuery<{ organization: { id: string; name: string } }>(trackerClient(ctx.services, token), `query VerbatimWorkspace { organization { id name } }`);
    const sealed = ctx.services.secrets.seal(token, `tracker:${flow.organization_id}`);
    await ctx.services.db.pool.query(
      `INSERT INTO tracker_connections (organization_id, token_ciphertext, token_key_id, workspace_id, workspace_name, connected_by, webhook_status, webhook_id)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', NULL)
       ON CONFLICT (organization_id) DO UPDATE SET token_ciphertext = $2, token_key_id = $3, workspace_id = $4, workspace_name = $5, connected_by = $6,
         webhook_status = 'pending', webhook_id = NULL, webhook_error = NULL, connected_at = now(), updated_at = now()`,
      [flow.organization_id, sealed.ciphertext, sealed.keyId, who.organization.id, who.organization.name, flow.user_id],
    );
    return { ...statusOf(await registerWebhook(ctx.services, (await connectionOf(ctx.services, flow.organization_id))!)), workspace_url: `${ctx.services.baseUrl()}/app/projects` };
  },
});

export const trackerClaim = capability({
  name: 'tracker.claim',
  title: 'Claim the tracker webhook registration',
  description: 'When a connection\'s webhook is still pending or failed (for instance two people connected at once), registers it now and reports the outcome.',
  input: z.strictObject({}),
  output: ConnectionStatus,
  annotations: updates,
  scope: 'write',
  access: 'org',
  roles: managers,
  mcp: false,
  rest: { method: 'GET', path: '/api/orgs/:orgHandle/tracker/claim' },
  async handler(ctx) {
    const c = await requireConnection(ctx.services, ctx.org!.id);
    return statusOf(c.webhook_status === 'registered' ? c : await registerWebhook(ctx.services, c));
  },
});

export const trackerConnection = capability({
  name: 'tracker.connection',
  title: 'Tracker connection status',
  description:
    'Whether the organization\'s tracker workspace is connected, which one, and its webhook state. ' +
    'Use it before tracker.teams or sending work to the tracker; when nothing is connected, a person connects it from GET /api/orgs/:orgHandle/tracker/connect (REST, in a browser).',
  input: z.strictObject({}),
  output: ConnectionStatus,
  annotations: readOnly,
  scope: 'read',
  access: 'org',
  rest: { method: 'GET', path: '/api/orgs/:orgHandle/tracker/connection' },
  async handler(ctx) {
    return statusOf(await connectionOf(ctx.services, ctx.org!.id));
  },
});

export const trackerDisconnect = capability({
  name: 'tracker.disconnect',
  title: 'Disconnect the tracker',
  description: 'Forgets the organization\'s tracker token (removing our webhook from the tracker when it can). Issues already created stay where they are.',
  input: z.strictObject({}),
  output: z.object({ success: z.boolean() }),
  annotations: deletes,
  scope: 'write',
  access: 'org',
  roles: managers,
  mcp: false,
  rest: { method: 'DELETE', path: '/api/orgs/:orgHandle/tracker/connection' },
  async handler(ctx) {
    const c = await connectionOf(ctx.services, ctx.org!.id);
    if (!c) return { success: true };
    if (c.webhook_id) {
      await trackerQuery(trackerClient(ctx.services, c.token), `mutation VerbatimWebhookDelete($id: String!) { webhookDelete(id: $id) { success } }`, { id: c.webhook_id }).catch((err) =>
        ctx.log.warn('could not remove the tracker webhook', { error: String(err) }),
      );
    }
    await ctx.services.db.pool.query(`DELETE FROM tracker_connections WHERE organization_id = $1`, [ctx.org!.id]);
    return { success: true };
  },
});

export const trackerWebhookStatus = capability({
  name: 'tracker.webhook_status',
  title: 'Tracker webhook health',
  description:
    'Whether the tracker webhook is registered, when the last signed delivery arrived, and how many arrived in the last 24 hours. ' +
    'Use it when updates from the tracker seem not to arrive; GET /api/orgs/:orgHandle/tracker/claim (REST, in a browser) registers a webhook that is still pending or failed.',
  input: z.strictObject({}),
  output: z.object({ status: z.enum(['none', 'pending', 'registered', 'failed']), error: z.string().nullable(), secret_configured: z.boolean(), last_delivery_at: z.string().nullable(), deliveries_24h: z.number().int() }),
  annotations: readOnly,
  scope: 'read',
  access: 'org',
  rest: { method: 'GET', path: '/api/orgs/:orgHandle/tracker/webhook/status' },
  async handler(ctx) {
    const c = await connectionOf(ctx.services, ctx.org!.id);
    const { rows } = await ctx.services.db.pool.query<{ last: Date | null; n: number }>(
      `SELECT max(received_at) AS last, count(*) FILTER (WHERE received_at > now() - interval '24 hours')::int AS n
         FROM webhook_deliveries WHERE provider = 'tracker' AND organization_id = $1`,
      [ctx.org!.id],
    );
    return {
      status: c?.webhook_status ?? ('none' as const),
      error: c?.webhook_error ?? null,
      secret_configured: !!ctx.services.config.integrations.trackerWebhookSecret,
      last_delivery_at: rows[0].last ? new Date(rows[0].last).toISOString() : null,
      deliveries_24h: rows[0].n,
    };
  },
});

const Team = z.object({ id: z.string(), key: z.string(), name: z.string(), triage_enabled: z.boolean(), selected: z.boolean() });

async function teamsOf(ctx: Ctx) {
  const c = await requireConnection(ctx.services, projectOf(ctx).org.id);
  const data = await trackerQuery<{ teams: { nodes: Array<{ id: string; key: string; name: string; triageEnabled: boolean }> } }>(
    trackerClient(ctx.services, c.token),
    `query VerbatimTeams { teams(first: 250) { nodes { id key name triageEnabled } } }`,
  );
  return data.teams.nodes;
}

export const trackerTeams = capability({
  name: 'tracker.teams',
  title: 'Tracker teams',
  description:
    'Teams of the connected tracker workspace that can receive this project\'s work, and whether each uses triage. ' +
    'Use it to find the team_id for tracker.select_team.',
  input: z.strictObject({}),
  output: z.object({ teams: z.array(Team) }),
  annotations: { ...readOnly, openWorldHint: true },
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/tracker/teams' },
  async handler(ctx) {
    const { project } = projectOf(ctx);
    return { teams: (await teamsOf(ctx)).map((t) => ({ id: t.id, key: t.key, name: t.name, triage_enabled: t.triageEnabled, selected: t.id === project.tracker_team_id })) };
  },
});

export const trackerSelectTeam = capability({
  name: 'tracker.select_team',
  title: 'Choose the receiving tracker team',
  description:
    'Chooses the tracker team that receives this project\'s work items and findings. ' +
    'Use it once the workspace is connected, with a team_id from tracker.teams; findings.send and work.push with provider linear deliver there.',
  input: z.strictObject({ team_id: z.string().min(1).max(100) }),
  output: z.object({ project: Project }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  roles: managers,
  rest: { method: 'POST', path: 'P/tracker/select-team' },
  async handler(ctx, input) {
    const { project, org } = projectOf(ctx);
    if (!(await teamsOf(ctx)).some((t) => t.id === input.team_id)) throw new NotFoundError('team_id: no such team in the connected workspace');
    return { project: projectRecord(await writeProject(ctx.services, project, { tracker_team_id: input.team_id }), org) };
  },
});
