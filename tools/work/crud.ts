import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { DomainError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, deletes, readOnly, sqlWhere, Success, updates } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { Signal } from '../evidence/record.ts';
import { signalRecordsOf } from '../evidence/read.ts';
import { MAX_BULK, linkSignals } from '../evidence/links.ts';
import { signalsById } from '../evidence/rows.ts';
import { actorOf, logActivity } from '../activity.ts';
import { inTransaction } from '../../core/tx.ts';
import { PriorityScore, TASK_STATUSES, Task, TaskIdParam, checkTaskMove, evidenceCounts, findTask, taskRecord, tasks, type TaskRow } from './record.ts';

const fields = {
  description: z.string().max(20_000).nullable().optional(),
  task_type: z.string().trim().min(1).max(40).optional().describe('e.g. bug, improvement, research'),
  priority_score: PriorityScore.optional(),
  effort_estimate: z.string().trim().min(1).max(20).nullable().optional().describe('A size code such as XS, S, M, L, XL'),
};

async function records(ctx: Ctx, rows: TaskRow[]) {
  const counts = await evidenceCounts(ctx, rows.map((r) => r.id));
  const ref = projectRefOf(ctx);
  return rows.map((r) => taskRecord(r, ref, counts.get(r.id) ?? 0));
}

export const listTasks = capability({
  name: 'work.list',
  title: 'List work items',
  description: 'Lists a project\'s work items, highest priority first, filtered by status and type. Pages with limit (default 20) and offset.',
  input: z.strictObject({
    status: z.enum(TASK_STATUSES).optional(),
    type: z.string().max(40).optional(),
    review_packet: z.boolean().optional().describe('true: only evidence review packets; false: only delivery work'),
    limit: z.number().int().min(1).max(200).default(20),
    offset: z.number().int().min(0).default(0),
  }),
  output: z.object({ tasks: z.array(Task), total: z.number().int() }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/tasks' },
  async handler(ctx, input) {
    const where = sqlWhere('project_id = $1', projectOf(ctx).project.id);
    if (input.status) where.add('status = ?', input.status);
    if (input.type) where.add('task_type = ?', input.type);
    if (input.review_packet !== undefined) where.add('review_packet = ?', input.review_packet);
    const pool = ctx.services.db.pool;
    const [count, rows] = await Promise.all([
      pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks WHERE ${where.clause}`, where.bind),
      tasks.select(pool, where.clause, where.bind, `ORDER BY priority_score DESC, created_at ASC LIMIT ${input.limit} OFFSET ${input.offset}`),
    ]);
    return { tasks: await records(ctx, rows), total: count.rows[0].n };
  },
});

export const readyTasks = capability({
  name: 'work.ready',
  title: 'Work ready for implementation',
  description: 'The highest-priority work items in status ready (review packets excluded), for picking what to build next. limit defaults to 10.',
  input: z.strictObject({ limit: z.number().int().min(1).max(100).default(10) }),
  output: z.object({ tasks: z.array(Task) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/tasks/ready' },
  async handler(ctx, input) {
    const rows = await tasks.select(ctx.services.db.pool, `project_id = $1 AND status = 'ready' AND NOT review_packet`, [projectOf(ctx).project.id], `ORDER BY priority_score DESC, created_at ASC LIMIT ${input.limit}`);
    return { tasks: await records(ctx, rows) };
  },
});

export const getTask = capability({
  name: 'work.get',
  title: 'Read a work item',
  description:
    'A work item with the evidence cards linked to it. ' +
    'Use it to read an item and its supporting evidence before updating, prioritising or sending it.',
  input: z.strictObject({ taskId: TaskIdParam }),
  output: z.object({ task: Task, evidence: z.array(Signal) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/tasks/:taskId' },
  async handler(ctx, input) {
    const task = await findTask(ctx, input.taskId);
    const { rows } = await ctx.services.db.pool.query(`SELECT s.* FROM signals s JOIN signal_task_links l ON l.signal_id = s.id WHERE l.task_id = $1 ORDER BY s.created_at`, [task.id]);
    return { task: taskRecord(task, projectRefOf(ctx), rows.length), evidence: signalRecordsOf(ctx, rows) };
  },
});

/** Creates a work item, optionally linking evidence, in one transaction. */
async function createTask(ctx: Ctx, input: { title: string; status?: TaskRow['status']; review_packet?: boolean; finding_id?: string | null; signal_ids?: string[] } & Partial<Record<keyof typeof fields, unknown>>) {
  const { project } = projectOf(ctx);
  const id = newId('tsk');
  return inTransaction(ctx.services.db.pool, async (sql) => {
    const task = await tasks.insert(sql, {
      id,
      project_id: project.id,
      title: input.title,
      description: (input.description as string | null | undefined) ?? null,
      task_type: (input.task_type as string | undefined) ?? 'improvement',
      status: input.status ?? 'backlog',
      priority_score: (input.priority_score as number | undefined) ?? 50,
      effort_estimate: (input.effort_estimate as string | null | undefined) ?? null,
      review_packet: input.review_packet ?? false,
      finding_id: input.finding_id ?? null,
      created_by: actorOf(ctx),
      updated_by: actorOf(ctx),
    });
    await logActivity(ctx, { type: 'task', id }, 'created', { review_packet: input.review_packet ?? false }, sql);
    if (input.signal_ids?.length) await linkSignals(ctx, input.signal_ids, id, sql);
    return task;
  });
}

export const createTaskCapability = capability({
  name: 'work.create',
  title: 'Create a work item',
  description:
    'Creates a work item (status backlog unless given) with a priority score from 0 to 100; the priority label follows from the score. ' +
    'Use it for work that does not come from evidence; to bundle evidence cards, use work.create_from_evidence.',
  input: z.strictObject({ title: z.string().trim().min(1).max(300), status: z.enum(['backlog', 'ready']).default('backlog'), ...fields }),
  output: z.object({ task: Task }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/tasks', status: 201 },
  async handler(ctx, input) {
    const task = await createTask(ctx, input);
    return { task: taskRecord(task, projectRefOf(ctx), 0) };
  },
});

export const createFromEvidence = capability({
  name: 'work.create_from_evidence',
  title: 'Create an evidence review packet',
  description:
    'Bundles evidence cards into a work item that is an evidence review packet: review context, not delivery work, until ' +
    'work.promote makes it deliverable. All cards must belong to the project (all or nothing).',
  input: z.strictObject({
    signal_ids: z.array(z.string().min(1).max(64)).min(1).max(MAX_BULK),
    title: z.string().trim().min(1).max(300).optional(),
    finding_id: z.string().max(64).optional(),
    ...fields,
  }),
  output: z.object({ task: Task }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/tasks/from-signals', status: 201 },
  async handler(ctx, input) {
    const [first] = await signalsById(ctx.services.db.pool, projectOf(ctx).project.id, [input.signal_ids[0]]);
    const title = input.title ?? (first?.headline ? `Review: ${first.headline}` : `Review ${input.signal_ids.length} evidence card${input.signal_ids.length > 1 ? 's' : ''}`);
    const task = await createTask(ctx, { ...input, title: title.slice(0, 300), review_packet: true, finding_id: input.finding_id ?? null });
    return { task: taskRecord(task, projectRefOf(ctx), new Set(input.signal_ids).size) };
  },
});

export const promoteTask = capability({
  name: 'work.promote',
  title: 'Promote a review packet to delivery work',
  description:
    'Turns an evidence review packet into delivery work once the evidence has been verified against the project; it can then be made ready and sent. ' +
    'Use it on a review packet from work.create_from_evidence once you have checked its cards.',
  input: z.strictObject({ taskId: TaskIdParam }),
  output: z.object({ task: Task }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/tasks/:taskId/promote' },
  async handler(ctx, input) {
    const task = await inTransaction(ctx.services.db.pool, async (sql) => {
      const t = await findTask(ctx, input.taskId, sql, true);
      if (!t.review_packet) throw new DomainError('This work item is already delivery work', { code: 'not_a_review_packet' });
      const saved = await tasks.update(sql, t.id, { review_packet: false, promoted_at: new Date(), updated_by: actorOf(ctx) });
      await logActivity(ctx, { type: 'task', id: t.id }, 'promoted', null, sql);
      return saved!;
    });
    return { task: (await records(ctx, [task]))[0] };
  },
});

export const updateTask = capability({
  name: 'work.update',
  title: 'Update a work item',
  description:
    'Changes a work item: title, description, type, priority score (the label is recomputed), effort, status ' +
    '(backlog ↔ ready → in_progress → done; wont_fix from any open state; done and wont_fix can be reopened). ' +
    'Use it to reprioritise, refine or move an item through its statuses; deleting is work.delete.',
  input: z.strictObject({ taskId: TaskIdParam, title: z.string().trim().min(1).max(300).optional(), status: z.enum(TASK_STATUSES).optional(), ...fields }),
  output: z.object({ task: Task }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'PATCH', path: 'P/tasks/:taskId' },
  async handler(ctx, { taskId, ...changes }) {
    if (!Object.keys(changes).length) throw new ValidationError('Nothing to update: send at least one field');
    const task = await inTransaction(ctx.services.db.pool, async (sql) => {
      const t = await findTask(ctx, taskId, sql, true);
      if (changes.status) checkTaskMove(t.status, changes.status);
      const completed = changes.status === 'done' ? { completed_at: new Date() } : changes.status && changes.status !== t.status ? { completed_at: null } : {};
      const from = t.status;
      const saved = await tasks.update(sql, t.id, { ...changes, ...completed, updated_by: actorOf(ctx) });
      await logActivity(ctx, { type: 'task', id: t.id }, changes.status && changes.status !== from ? `status:${from}->${changes.status}` : 'updated', { fields: Object.keys(changes) }, sql);
      return saved!;
    });
    return { task: (await records(ctx, [task]))[0] };
  },
});

export const deleteTask = capability({
  name: 'work.delete',
  title: 'Delete a work item',
  description:
    'Deletes a work item; its evidence cards stay, unlinked. ' +
    'Use it for a work item made by mistake or duplicated; to close one that will not be done, set its status to wont_fix with work.update.',
  input: z.strictObject({ taskId: TaskIdParam }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'project',
  rest: { method: 'DELETE', path: 'P/tasks/:taskId' },
  async handler(ctx, input) {
    await inTransaction(ctx.services.db.pool, async (sql) => {
      const t = await findTask(ctx, input.taskId, sql, true);
      await logActivity(ctx, { type: 'task', id: t.id }, 'deleted', { title: t.title }, sql);
      await sql.query('DELETE FROM tasks WHERE id = $1', [t.id]);
    });
    return { success: true };
  },
});
