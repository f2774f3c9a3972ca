import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { iso, readOnly } from '../common.ts';
import { connectionOf } from './tracker-connection.ts';

const Implementation = z.object({
  id: z.enum(['codehost', 'tracker']),
  provider: z.enum(['github', 'linear']),
  status: z.enum(['not_configured', 'incomplete', 'connected']).describe('incomplete: connected but no repository or team chosen yet'),
  target: z.string().nullable().describe('Repository (owner/name) or tracker team id'),
  configured_on_server: z.boolean(),
  deliveries: z.object({ sent: z.number().int(), retrying: z.number().int(), failed: z.number().int() }),
  last_sync_at: z.string().nullable(),
});

async function implementations(ctx: Ctx): Promise<Array<z.input<typeof Implementation>>> {
  const { project, org } = projectOf(ctx);
  const { integrations, linking } = ctx.services.config;
  const { rows } = await ctx.services.db.pool.query<{ provider: string; sent: number; retrying: number; failed: number; last: Date | null }>(
    `SELECT provider, count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status IN ('pending', 'sending', 'retrying'))::int AS retrying,
            count(*) FILTER (WHERE status = 'failed')::int AS failed, max(last_synced_at) AS last
       FROM deliveries WHERE project_id = $1 GROUP BY provider`,
    [project.id],
  );
  const stats = (p: string) => rows.find((r) => r.provider === p);
  const tracker = await connectionOf(ctx.services, org.id);
  const entry = (id: 'codehost' | 'tracker', provider: 'github' | 'linear', connected: boolean, target: string | null, onServer: boolean) => ({
    id,
    provider,
    status: (!connected ? 'not_configured' : target ? 'connected' : 'incomplete') as 'not_configured' | 'incomplete' | 'connected',
    target,
    configured_on_server: onServer,
    deliveries: { sent: stats(provider)?.sent ?? 0, retrying: stats(provider)?.retrying ?? 0, failed: stats(provider)?.failed ?? 0 },
    last_sync_at: iso(stats(provider)?.last ?? null),
  });
  return [
    entry('codehost', 'github', !!project.codehost_installation_id, project.codehost_installation_id ? project.codehost_repo_url : null, !!integrations.codehostAppId),
    entry('tracker', 'linear', !!tracker, tracker ? project.tracker_team_id : null, !!linking.tracker.clientId),
  ];
}

export const listImplementations = capability({
  name: 'integrations.list',
  title: 'Delivery integrations',
  description:
    'The project\'s delivery integrations (code host, tracker): whether each is connected and to which repository or team, and how its deliveries went. ' +
    'Use it before sending findings or work, to see where they would go and whether delivery works.',
  input: z.strictObject({}),
  output: z.object({ implementations: z.array(Implementation) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/implementations' },
  async handler(ctx) {
    return { implementations: await implementations(ctx) };
  },
});

export const getImplementation = capability({
  name: 'integrations.get',
  title: 'One delivery integration',
  description:
    'Status, target and last sync of the code-host or tracker integration. ' +
    'Use it to look at one integration (codehost or tracker) in detail after integrations.list, for instance when deliveries fail.',
  input: z.strictObject({ implId: z.enum(['codehost', 'tracker']) }),
  output: z.object({ implementation: Implementation }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/implementations/:implId' },
  async handler(ctx, input) {
    const found = (await implementations(ctx)).find((i) => i.id === input.implId);
    if (!found) throw new NotFoundError('No such integration');
    return { implementation: found };
  },
});
