import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly } from '../common.ts';
import type { ProcessingStatus } from '../interviews/pipeline.ts';
import { InvitationIdParam, RecordingInvitation, findInvitation, invitationRecord, placeOf } from './record.ts';
import { interviews } from '../interviews/rows.ts';

const Processing = z
  .object({
    status: z.enum(['not_started', 'pending', 'processing', 'processed', 'failed']),
    current_step: z.string().nullable(),
    evidence_count: z.number().int(),
    error_code: z.string().nullable(),
    error_message: z.string().nullable(),
  })
  .nullable()
  .describe('Processing of the recorded interview; null until the recording is complete');

export const getResults = capability({
  name: 'recordings.get_results',
  title: 'Poll a recording invitation',
  description:
    'Returns one recording invitation with its status and, once the guest has finished, the recorded interview (interviewRef) and its processing ' +
    '(status, evidence_count, error). Poll until processing.status is processed or failed; then read the evidence with the evidence tools.',
  input: z.strictObject({ invitationId: InvitationIdParam }),
  output: RecordingInvitation.extend({ processing: Processing }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/recording-invitations/:invitationId' },
  async handler(ctx, input) {
    const row = await findInvitation(ctx, input.invitationId);
    const record = invitationRecord(ctx.services, row, placeOf(ctx));
    const [interview] = record.interviewRef ? await interviews.select(ctx.services.db.pool, 'id = $1', [record.interviewRef]) : [];
    const processing = interview
      ? {
          status: interview.processing_status as ProcessingStatus,
          current_step: interview.processing_step,
          evidence_count: interview.evidence_count,
          error_code: interview.processing_error_code,
          error_message: interview.processing_error_message,
        }
      : null;
    return { ...record, processing };
  },
});
