import type { Sql } from '../../core/tx.ts';
import type { Services } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';
import { addJob } from '../../core/queue.ts';
import { interviews } from './rows.ts';

/**
 * Processing moves: pending → processing (step deriving_media → reading_screen (videos only) → transcribing → extracting)
 * → processed, or → failed with error_code / error_message / retryable. Each step is a
 * graphile-worker job keyed by interview and step; a step that dies runs again.
 */
export type ProcessingStatus = 'not_started' | 'pending' | 'processing' | 'processed' | 'failed';
export type Step = 'deriving_media' | 'reading_screen' | 'transcribing' | 'extracting' | 'merging_media';

export const TASK_FOR_STEP: Record<Step, string> = {
  deriving_media: 'interview_derive_media',
  reading_screen: 'interview_read_screen',
  transcribing: 'interview_transcribe',
  extracting: 'interview_extract',
  merging_media: 'interview_merge_media',
};

/**
 * The next step of an interview already being processed runs before the first step of one
 * still waiting: in a burst, work in flight finishes (and its evidence appears) before more
 * is started, instead of every interview advancing one step per pass over the backlog.
 */
export const CONTINUING_PRIORITY = -1;

export async function queueStep(
  services: Services,
  interviewId: string,
  step: Step,
  sql: Sql,
  payload: Record<string, unknown> = {},
  opts: { runAt?: Date; continuing?: boolean } = {},
): Promise<void> {
  await addJob(sql, TASK_FOR_STEP[step], { interviewId, ...payload }, {
    jobKey: `interview:${interviewId}:${step}`,
    maxAttempts: 5,
    ...(opts.runAt ? { runAt: opts.runAt } : {}),
    ...(opts.continuing ? { priority: CONTINUING_PRIORITY } : {}),
  });
}

/** Where processing starts: media first when there is any, else straight to the transcript. */
export async function firstStep(sql: Sql, interview: Pick<InterviewRow, 'id'>): Promise<Step> {
  const { rows } = await sql.query<{ media: boolean; segments: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM interview_artifacts WHERE interview_id = $1 AND kind = 'source') AS media,
            EXISTS (SELECT 1 FROM transcript_segments WHERE interview_id = $1) AS segments`,
    [interview.id],
  );
  if (rows[0].media) return 'deriving_media';
  return rows[0].segments ? 'extracting' : 'transcribing';
}

/** The step after the media ones: transcription, unless the interview already has a transcript. */
export async function afterMedia(sql: Sql, interviewId: string): Promise<Step> {
  return (await hasTranscript(sql, interviewId)) ? 'extracting' : 'transcribing';
}

export async function hasTranscript(sql: Sql, interviewId: string): Promise<boolean> {
  const { rows } = await sql.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM transcript_segments WHERE interview_id = $1) AS found', [interviewId]);
  return rows[0].found;
}

/** Marks an interview queued and enqueues its first step (at `runAt`, or now), in the caller's transaction; the interview object gets the saved values. */
export async function queueProcessing(services: Services, interview: InterviewRow, sql: Sql, from?: Step, runAt?: Date, payload: Record<string, unknown> = {}): Promise<void> {
  const step = from ?? (await firstStep(sql, interview));
  await interviews.save(sql, interview, {
    processing_status: 'pending',
    processing_step: null,
    processing_error_code: null,
    processing_error_message: null,
    processing_retryable: null,
  });
  await queueStep(services, interview.id, step, sql, payload, { runAt });
}

export class StepFailure extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly action: string | null;
  constructor(code: string, message: string, opts: { retryable?: boolean; action?: string } = {}) {
    super(message);
    this.code = code;
    this.retryable = opts.retryable ?? false;
    this.action = opts.action ?? null;
  }
}
