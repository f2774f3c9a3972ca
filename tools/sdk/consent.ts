import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { DomainError } from '../../core/errors.ts';
import { updates } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { Session, sessionRecord } from '../interviews/record.ts';
import { SdkSessionId, elapsedMs, recordEvent, sdkSession } from './session-access.ts';
import { inTransaction } from '../../core/tx.ts';
import { interviews } from '../interviews/rows.ts';

export const sdkConsent = capability({
  name: 'sdk.record_consent',
  title: 'Record consent (widget)',
  description:
    'Records the participant\'s consent decision for recording and for data use, with the version of the consent copy they saw. ' +
    'An interview runs only after data-use consent; declining ends it as abandoned.',
  input: z.strictObject({
    sessionId: SdkSessionId,
    consent_recording: z.boolean().describe('May audio/screen be recorded'),
    consent_data_use: z.boolean().describe('May answers be used for research'),
    consent_version: z.string().trim().min(1).max(64).describe('Version of the consent copy shown, e.g. 2026-01'),
  }),
  output: z.object({ session: Session }),
  annotations: updates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rateLimit: 20,
  rest: { method: 'POST', path: '/api/sdk/sessions/:sessionId/consent' },
  async handler(ctx, input) {
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const { interview } = await sdkSession(ctx, input.sessionId, sql, true);
      if (interview.status === 'completed' || interview.status === 'abandoned') {
        throw new DomainError('This interview has already ended', { code: 'session_ended' });
      }
      await interviews.save(sql, interview, {
        consent_recording: input.consent_recording,
        consent_data_use: input.consent_data_use,
        consent_version: input.consent_version,
        ...(input.consent_data_use ? {} : { status: 'abandoned', ended_at: new Date() }),
      });
      await recordEvent(
        ctx.services,
        interview.id,
        {
          type: 'consent',
          timestampMs: elapsedMs(interview),
          line: `consent ${input.consent_data_use ? 'given' : 'declined'} (recording ${input.consent_recording ? 'yes' : 'no'}, copy ${input.consent_version})`,
          data: { consent_recording: input.consent_recording, consent_data_use: input.consent_data_use, consent_version: input.consent_version },
        },
        sql,
      );
      return interview;
    });
    return { session: sessionRecord(row, projectRefOf(ctx)) };
  },
});
