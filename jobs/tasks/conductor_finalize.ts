import type { TaskFactory } from '../runner.ts';
import { endInterview, isEnded } from '../../tools/conductor/end.ts';

/** Ends a live interview whose participant did not come back within the grace period. */
export const task: TaskFactory = (services) => async (payload) => {
  const { interviewId } = payload as { interviewId: string };
  await services.db.sequelize.transaction(async (transaction) => {
    const interview = await services.models.Interview.findByPk(interviewId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!interview || isEnded(interview) || !interview.finalize_after) return; // ended, or the participant came back
    if (new Date(interview.finalize_after).getTime() > Date.now()) return;
    await endInterview(services, interview, transaction);
  });
};
