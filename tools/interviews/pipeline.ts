import type { Transaction } from 'sequelize';
import type { Services } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';
import { addJob } from '../../core/queue.ts';

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
  transaction: Transaction,
  payload: Record<string, unknown> = {},
  opts: { runAt?: Date; continuing?: boolean } = {},
): Promise<void> {
  await addJob(services.db.sequelize, transaction, TASK_FOR_STEP[step], { interviewId, ...payload }, {
    jobKey: `interview:${interviewId}:${step}`,
    maxAttempts: 5,
    ...(opts.runAt ? { runAt: opts.runAt } : {}),
    ...(opts.continuing ? { priority: CONTINUING_PRIORITY } : {}),
  });
}

/** Where processing starts: media first when there is any, else straight to the transcript. */
export async function firstStep(services: Services, interview: Pick<InterviewRow, 'id'>, transaction: Transaction): Promise<Step> {
  const media = await services.models.Artifact.count({ where: { interview_id: interview.id, kind: 'source' }, transaction });
  if (media) return 'deriving_media';
  const segments = await services.models.TranscriptSegment.count({ where: { interview_id: interview.id }, transaction });
  return segments ? 'extracting' : 'transcribing';
}

/** The step after the media ones: transcription, unless the interview already has a transcript. */
export async function afterMedia(services: Services, interviewId: string, transaction: Transaction): Promise<Step> {
  const segments = await services.models.TranscriptSegment.count({ where: { interview_id: interviewId }, transaction });
  return segments ? 'extracting' : 'transcribing';
}

/** Marks an interview queued and enqueues its first step (at `runAt`, or now), in the caller's transaction. */
export async function queueProcessing(services: Services, interview: InterviewRow, transaction: Transaction, from?: Step, runAt?: Date): Promise<void> {
  const step = from ?? (await firstStep(services, interview, transaction));
  await interview.update(
    {
      processing_status: 'pending',
      processing_step: null,
      processing_error_code: null,
      processing_error_message: null,
      processing_retryable: null,
    },
    { transaction },
  );
  await queueStep(services, interview.id, step, transaction, {}, { runAt });
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
