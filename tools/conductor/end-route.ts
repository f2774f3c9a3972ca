import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectRefOf } from '../studies/record.ts';
import { Session, sessionRecord } from '../interviews/record.ts';
import { updates } from '../common.ts';
import { SdkSessionId, sdkSession } from '../sdk/session-access.ts';
import { endInterview } from './end.ts';

export const conductorEnd = capability({
  name: 'sdk.conductor_end',
  title: 'End the interview (widget)',
  description: 'Ends the live interview and queues it for processing. Idempotent: ending an ended interview changes nothing.',
  input: z.strictObject({ sessionId: SdkSessionId }),
  output: z.object({ session: Session, queued: z.boolean() }),
  annotations: updates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rest: { method: 'POST', path: '/api/sdk/conductor/:sessionId/end' },
  async handler(ctx, input) {
    const row = await ctx.services.db.sequelize.transaction(async (transaction) => {
      const { interview } = await sdkSession(ctx, input.sessionId, { transaction, lock: true });
      await endInterview(ctx.services, interview, transaction);
      return interview;
    });
    return { session: sessionRecord(row, projectRefOf(ctx)), queued: row.processing_status !== 'not_started' };
  },
});
