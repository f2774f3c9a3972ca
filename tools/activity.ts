import type { Transaction } from 'sequelize';
import type { Ctx } from '../core/context.ts';
import { isUserBound, projectOf } from '../core/context.ts';

/** Who did what to which record, and when: every state change of the research loop lands here. */
export async function logActivity(ctx: Ctx, subject: { type: string; id: string }, action: string, data: Record<string, unknown> | null, transaction?: Transaction): Promise<void> {
  const { project } = projectOf(ctx);
  const actor = actorOf(ctx);
  await ctx.services.db.sequelize.query(
    `INSERT INTO activity (project_id, subject_type, subject_id, action, actor_id, data) VALUES ($1, $2, $3, $4, $5, $6)`,
    { bind: [project.id, subject.type, subject.id, action, actor, data ? JSON.stringify(data) : null], transaction },
  );
}

export function actorOf(ctx: Ctx): string | null {
  return isUserBound(ctx.principal) ? ctx.principal.userId : null;
}
