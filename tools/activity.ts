import type { Ctx } from '../core/context.ts';
import { isUserBound, projectOf } from '../core/context.ts';
import type { Sql } from '../core/tx.ts';

/** Who did what to which record, and when: every state change of the research loop lands here, in the caller's transaction when given. */
export async function logActivity(ctx: Ctx, subject: { type: string; id: string }, action: string, data: Record<string, unknown> | null, sql?: Sql): Promise<void> {
  await logActivities(ctx, subject.type, [{ id: subject.id, data }], action, sql);
}

/** The same action on many records of one type, in one statement. */
export async function logActivities(ctx: Ctx, subjectType: string, entries: ReadonlyArray<{ id: string; data: Record<string, unknown> | null }>, action: string, sql: Sql = ctx.services.db.pool): Promise<void> {
  if (!entries.length) return;
  await sql.query({
    name: 'activity_insert',
    text: `INSERT INTO activity (project_id, subject_type, subject_id, action, actor_id, data)
           SELECT $1, $2, u.id, $3, $4, u.data FROM unnest($5::text[], $6::jsonb[]) WITH ORDINALITY AS u(id, data, n) ORDER BY u.n`,
    values: [projectOf(ctx).project.id, subjectType, action, actorOf(ctx), entries.map((e) => e.id), entries.map((e) => (e.data ? JSON.stringify(e.data) : null))],
  });
}

export function actorOf(ctx: Ctx): string | null {
  return isUserBound(ctx.principal) ? ctx.principal.userId : null;
}
