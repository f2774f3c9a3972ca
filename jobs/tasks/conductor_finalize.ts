import type { TaskFactory } from '../runner.ts';
import { endInterview, isEnded } from '../../tools/conductor/end.ts';
import { inTransaction } from '../../core/tx.ts';
import { interviews } from '../../tools/interviews/rows.ts';

/** Ends a live interview whose participant did not come back within the grace period. */
export const task: TaskFactory = (services) => async (payload) => {
  const { interviewId } = payload as { interviewId: string };
  await inTransaction(services.db.pool, async (sql) => {
    const [interview] = await interviews.select(sql, 'id = $1', [interviewId], 'FOR UPDATE');
    if (!interview || isEnded(interview) || !interview.finalize_after) return; // ended, or the participant came back
    if (new Date(interview.finalize_after).getTime() > Date.now()) return;
    // It ended when the participant left (the grace period was armed then), not when the grace period ran out.
    const left = new Date(new Date(interview.finalize_after).getTime() - services.config.conductorGraceSeconds * 1000);
    await endInterview(services, interview, sql, left);
  });
};
