import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectRefOf } from '../studies/record.ts';
import { Session, sessionRecord } from '../interviews/record.ts';
import { updates } from '../common.ts';
import { SdkSessionId, sdkSession } from '../sdk/session-access.ts';
import { endInterview } from './end.ts';
import { inTransaction } from '../../core/tx.ts';

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
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const { interview } = await sdkSession(ctx, input.sessionId, sql, true);
      await endInterview(ctx.services, interview, sql);
      return interview;
    });
    return { session: sessionRecord(row, projectRefOf(ctx)), queued: row.processing_status !== 'not_started' };
  },
});
