import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { ValidationError } from '../../core/errors.ts';
import { creates, readOnly } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { Task, TaskIdParam, evidenceCounts, findTask, taskRecord } from '../work/record.ts';
import { Delivery, checkSendable, deliveryRecord, sendTask } from './send.ts';
import { readIssue, type Provider } from './providers.ts';
import { applyProviderState } from './sync.ts';
import { inTransaction } from '../../core/tx.ts';

const ProviderName = z.enum(['github', 'linear']).describe('github: the code host (an issue in the bound repository); linear: the tracker (an issue in the chosen team)');

/** The project's delivery integration when the caller names none: its repository, else its tracker team. */
export function defaultProvider(ctx: Ctx): Provider {
  const { project } = projectOf(ctx);
  if (project.codehost_repo_url && project.codehost_installation_id) return 'github';
  if (project.tracker_team_id) return 'linear';
  throw new ValidationError('The project has no delivery integration', { code: 'no_delivery_integration', action: 'Bind a repository (P/codehost-app/select-repo) or a tracker team (P/tracker/select-team)' });
}

async function push(ctx: Ctx, taskId: string, provider?: Provider) {
  const task = await findTask(ctx, taskId);
  checkSendable(task);
  const delivery = await sendTask(ctx.services, task.id, provider ?? defaultProvider(ctx));
  const fresh = await findTask(ctx, task.id);
  return { task: taskRecord(fresh, projectRefOf(ctx), (await evidenceCounts(ctx, [task.id])).get(task.id) ?? 0), delivery };
}

const PushOutput = z.object({ task: Task, delivery: Delivery });
const sends = { ...creates, idempotentHint: true, openWorldHint: true };

export const pushTask = capability({
  name: 'work.push',
  title: 'Send a work item to the code host or tracker',
  description:
    'Creates the issue for a work item, with its evidence quotes and links back, in the project\'s repository (github) or tracker team (linear; ' +
    'into triage when the team uses it, else the backlog). Sending again returns the same issue. A busy provider is retried in the background: ' +
    'delivery.status is then retrying; poll work.provider_state.',
  input: z.strictObject({ taskId: TaskIdParam, provider: ProviderName.optional() }),
  output: PushOutput,
  annotations: sends,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/tasks/:taskId/push' },
  async handler(ctx, input) {
    return push(ctx, input.taskId, input.provider);
  },
});

export const pushTaskToTracker = capability({
  name: 'work.push_tracker',
  title: 'Send a work item to the tracker',
  description: 'work.push with provider linear: the tracker only.',
  input: z.strictObject({ taskId: TaskIdParam }),
  output: PushOutput,
  annotations: sends,
  scope: 'write',
  access: 'project',
  mcp: false,
  rest: { method: 'POST', path: 'P/tasks/:taskId/push/tracker' },
  async handler(ctx, input) {
    return push(ctx, input.taskId, 'linear');
  },
});

export const providerState = capability({
  name: 'work.provider_state',
  title: 'Provider-side state of a work item',
  description:
    'Where the work item\'s issues stand at the code host and tracker: URL, state, placement and last sync. refresh=true asks the providers now ' +
    'and applies what they say (resolving evidence when an issue completed).',
  input: z.strictObject({ taskId: TaskIdParam, refresh: z.boolean().default(false) }),
  output: z.object({ task_id: z.string(), deliveries: z.array(Delivery) }),
  annotations: { ...readOnly, openWorldHint: true },
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/tasks/:taskId/provider-state' },
  async handler(ctx, input) {
    const task = await findTask(ctx, input.taskId);
    const { db } = ctx.services;
    const load = async () => (await db.pool.query(`SELECT * FROM deliveries WHERE task_id = $1 ORDER BY created_at`, [task.id])).rows;
    if (input.refresh) {
      const { project } = projectOf(ctx);
      for (const d of await load()) {
        if (d.status !== 'sent') continue;
        const live = await readIssue(ctx.services, d.provider, project, d.issue_id, d.issue_number);
        await inTransaction(db.pool, (sql) => applyProviderState(d.provider, d.issue_id, live.state, live.category, sql));
      }
    }
    return { task_id: task.id, deliveries: (await load()).map(deliveryRecord) };
  },
});
