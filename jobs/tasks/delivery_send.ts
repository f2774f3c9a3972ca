import type { TaskFactory } from '../runner.ts';
import { sendTask } from '../../tools/integrations/send.ts';
import type { Provider } from '../../tools/integrations/providers.ts';

/** Tries again a delivery whose provider was busy; graphile-worker backs off between attempts. */
export const task: TaskFactory = (services) => async (payload, helpers) => {
  const { taskId, provider } = payload as { taskId: string; provider: Provider };
  await sendTask(services, taskId, provider, { fromJob: true, lastAttempt: helpers.job.attempts >= helpers.job.max_attempts });
};
