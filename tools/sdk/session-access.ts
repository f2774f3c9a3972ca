import { z } from 'zod';
import type { Sql } from '../../core/tx.ts';
import { interviews } from '../interviews/rows.ts';
import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';
import { studies, type StudyRow } from '../studies/record.ts';
import { NotFoundError } from '../../core/errors.ts';
import { guardOrigin } from './origin-guard.ts';

export const SdkSessionId = z.string().min(1).max(64).describe('The interview id the widget got from POST /api/sdk/sessions');

/**
 * The widget's interview, checked to belong to the SDK key's project and guarded by its
 * study's allowed origins. Locks the row when asked (inside the caller's transaction).
 */
export async function sdkSession(
  ctx: Ctx,
  sessionId: string,
  sql: Sql = ctx.services.db.pool,
  lock = false,
): Promise<{ interview: InterviewRow; study: StudyRow | null }> {
  const { project } = projectOf(ctx);
  const [interview] = await interviews.select(sql, 'id = $1 AND project_id = $2', [sessionId, project.id], lock ? 'FOR UPDATE' : '');
  if (!interview) throw new NotFoundError('Interview not found for this SDK key', { code: 'session_not_found' });
  const [study] = interview.study_id ? await studies.select(sql, 'id = $1 AND project_id = $2', [interview.study_id, project.id]) : [];
  await guardOrigin(ctx, study ?? null, interview.id);
  return { interview, study: study ?? null };
}

/** Milliseconds since the interview started (or since it was created, before that). */
export function elapsedMs(interview: Pick<InterviewRow, 'started_at' | 'created_at'>, at = Date.now()): number {
  const from = new Date(interview.started_at ?? interview.created_at).getTime();
  return Math.max(0, at - from);
}

/** Appends a timestamped event to an interview's timeline. */
export async function recordEvent(
  services: Ctx['services'],
  interviewId: string,
  event: { type: string; timestampMs: number; line: string; data?: Record<string, unknown> },
  sql: Sql = services.db.pool,
): Promise<void> {
  await sql.query({
    name: 'interview_event_insert',
    text: `INSERT INTO interview_events (interview_id, event_type, timestamp_ms, event_line, data) VALUES ($1, $2, $3, $4, $5)`,
    values: [interviewId, event.type, event.timestampMs, event.line, JSON.stringify(event.data ?? {})],
  });
}
