import { z } from 'zod';
import type { Sql } from '../../core/tx.ts';
import { table } from '../../core/table.ts';
import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import type { TaskAttrs } from '../../models/index.ts';
import { DomainError, NotFoundError } from '../../core/errors.ts';
import { Timestamp, iso, isoRequired } from '../common.ts';

/** A `tasks` row as `pg` reads it. */
export type TaskRow = TaskAttrs;

export const tasks = table<TaskRow>()('tasks', [
  'id', 'project_id', 'title', 'description', 'task_type', 'status', 'priority_score', 'effort_estimate', 'review_packet', 'promoted_at',
  'finding_id', 'tracker_issue_id', 'tracker_issue_url', 'tracker_issue_status', 'completed_at', 'created_by', 'updated_by', 'created_at', 'updated_at',
]);

export const TASK_STATUSES = ['backlog', 'ready', 'in_progress', 'done', 'wont_fix'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** SPEC 2.8: critical >= 80, high >= 60, medium >= 40, low below. */
export function priorityLabel(score: number): 'critical' | 'high' | 'medium' | 'low' {
  if (score >= 80) return 'critical';
  if (score >= 60) return 'high';
  if (score >= 40) return 'medium';
  return 'low';
}

/** Allowed status moves (docs/decisions.md): done and wont_fix can be reopened. */
export const TASK_MOVES: Record<TaskStatus, TaskStatus[]> = {
  backlog: ['ready', 'in_progress', 'wont_fix'],
  ready: ['backlog', 'in_progress', 'wont_fix'],
  in_progress: ['backlog', 'ready', 'done', 'wont_fix'],
  done: ['in_progress', 'backlog'],
  wont_fix: ['backlog'],
};

export function checkTaskMove(from: TaskStatus, to: TaskStatus): void {
  if (from !== to && !TASK_MOVES[from].includes(to)) {
    throw new DomainError(`A ${from} work item cannot move to ${to}; allowed: ${TASK_MOVES[from].join(', ')}`, { code: 'task_status_transition_invalid' });
  }
}

export const Task = z
  .object({
    id: z.string(),
    project_ref: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    task_type: z.string(),
    status: z.enum(TASK_STATUSES),
    priority_score: z.number(),
    priority_label: z.enum(['critical', 'high', 'medium', 'low']),
    effort_estimate: z.string().nullable(),
    review_packet: z.boolean().describe('An evidence review packet: review context, not delivery work, until promoted'),
    finding_ref: z.string().nullable(),
    evidence_count: z.number().int(),
    tracker_issue_id: z.string().nullable(),
    tracker_issue_url: z.string().nullable(),
    tracker_issue_status: z.string().nullable(),
    completed_at: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Task' });
export type TaskRecord = z.input<typeof Task>;

export function taskRecord(t: TaskRow, projectRef: string, evidenceCount: number): TaskRecord {
  return {
    id: t.id,
    project_ref: projectRef,
    title: t.title,
    description: t.description,
    task_type: t.task_type,
    status: t.status,
    priority_score: t.priority_score,
    priority_label: priorityLabel(t.priority_score),
    effort_estimate: t.effort_estimate,
    review_packet: t.review_packet,
    finding_ref: t.finding_id,
    evidence_count: evidenceCount,
    tracker_issue_id: t.tracker_issue_id,
    tracker_issue_url: t.tracker_issue_url,
    tracker_issue_status: t.tracker_issue_status,
    completed_at: iso(t.completed_at),
    created_at: isoRequired(t.created_at),
    updated_at: isoRequired(t.updated_at),
  };
}

export async function evidenceCounts(ctx: Ctx, taskIds: string[]): Promise<Map<string, number>> {
  if (!taskIds.length) return new Map();
  const { rows } = await ctx.services.db.pool.query<{ task_id: string; n: number }>(`SELECT task_id, count(*)::int AS n FROM signal_task_links WHERE task_id = ANY($1) GROUP BY task_id`, [taskIds]);
  return new Map(rows.map((r) => [r.task_id, r.n]));
}

/** A work item of the caller's project; `lock` takes it FOR UPDATE in the caller's transaction. Another project's is not found. */
export async function findTask(ctx: Ctx, id: string, sql: Sql = ctx.services.db.pool, lock = false): Promise<TaskRow> {
  const [task] = await tasks.select(sql, 'id = $1 AND project_id = $2', [id, projectOf(ctx).project.id], lock ? 'FOR UPDATE' : '');
  if (!task) throw new NotFoundError(`Work item ${id} not found`);
  return task;
}

export const TaskIdParam = z.string().min(1).max(64).describe('Work item id (tsk_...)');
export const PriorityScore = z.number().min(0).max(100).describe('0-100; the label follows: critical >= 80, high >= 60, medium >= 40, low below');
