import { z } from 'zod';
import type { InterviewRow } from '../../models/index.ts';
import { Timestamp, isoRequired } from '../common.ts';

/** The interview (session) record; the interviews area adds transcript and processing detail. */
export const Session = z
  .object({
    id: z.string(),
    project_ref: z.string(),
    study_ref: z.string().nullable(),
    intake_ref: z.string().nullable(),
    screener_response_id: z.string().nullable(),
    source: z.string().describe('widget, upload, import or api'),
    status: z.string(),
    processing_status: z.string(),
    interview_mode: z.string().nullable(),
    participant_name: z.string().nullable(),
    participant_email: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Session' });

export function sessionRecord(i: InterviewRow, projectRef: string): z.input<typeof Session> {
  return {
    id: i.id,
    project_ref: projectRef,
    study_ref: i.study_id,
    intake_ref: i.intake_id,
    screener_response_id: i.intake_response_id,
    source: i.source,
    status: i.status,
    processing_status: i.processing_status,
    interview_mode: i.interview_mode,
    participant_name: i.participant_name,
    participant_email: i.participant_email,
    created_at: isoRequired(i.created_at),
    updated_at: isoRequired(i.updated_at),
  };
}
