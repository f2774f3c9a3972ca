import type { Sql } from '../../core/tx.ts';
import type { Services } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';
import { newId } from '../../core/ids.ts';
import { addJob } from '../../core/queue.ts';
import { queueProcessing } from '../interviews/pipeline.ts';
import { elapsedMs, recordEvent } from '../sdk/session-access.ts';
import { insertSegments, interviews } from '../interviews/rows.ts';
import { hasTranscript } from '../interviews/pipeline.ts';

export const isEnded = (i: Pick<InterviewRow, 'status'>) => i.status === 'completed' || i.status === 'abandoned';

/** How long after a voice interview ends its last recorded piece may still arrive. */
export const LAST_PIECE_GRACE_MS = 10_000;

/** A recording may still be added: the interview is live, or a voice interview ended moments ago and its media is not merged yet. */
export function takesRecordings(i: Pick<InterviewRow, 'status' | 'interview_mode' | 'ended_at' | 'processing_status' | 'processing_step'>): boolean {
  if (!isEnded(i)) return true;
  const recent = i.ended_at && Date.now() - new Date(i.ended_at).getTime() < LAST_PIECE_GRACE_MS;
  return i.status === 'completed' && i.interview_mode === 'voice' && !!recent && i.processing_status === 'pending';
}

/**
 * Ends a live interview once (later calls change nothing): the conversation becomes its
 * transcript and processing is queued in the same transaction. `endedAt` is when it ended for
 * the participant (now, or when a participant who left was last seen). An interview in which the
 * participant never said anything and recorded nothing is abandoned, with nothing to process.
 */
export async function endInterview(services: Services, interview: InterviewRow, sql: Sql, endedAt = new Date()): Promise<boolean> {
  if (isEnded(interview)) return true;
  const { rows: messages } = await sql.query<{ role: string; content: string; timestamp_ms: number }>(
    `SELECT role, content, timestamp_ms FROM interview_messages WHERE interview_id = $1 ORDER BY timestamp_ms, id`,
    [interview.id],
  );
  const { rows: [{ chunks }] } = await sql.query<{ chunks: boolean }>('SELECT EXISTS (SELECT 1 FROM media_chunks WHERE interview_id = $1) AS chunks', [interview.id]);
  const base = { ended_at: endedAt, finalize_after: null, duration_seconds: interview.started_at ? Math.round((endedAt.getTime() - new Date(interview.started_at).getTime()) / 1000) : null };
  await recordEvent(services, interview.id, { type: 'ended', timestampMs: elapsedMs(interview), line: 'interview ended' }, sql);
  if (!messages.some((m) => m.role === 'participant') && !chunks) {
    await interviews.save(sql, interview, { ...base, status: 'abandoned' });
    return true;
  }
  if (!(await hasTranscript(sql, interview.id))) {
    await insertSegments(
      sql,
      interview.id,
      messages.map((m, idx) => ({
        id: newId('seg'),
        speaker: m.role === 'participant' ? (interview.participant_name ?? 'Participant') : 'Interviewer',
        role: m.role === 'participant' ? ('participant' as const) : ('interviewer' as const),
        start_ms: Math.round(m.timestamp_ms),
        end_ms: Math.round(messages[idx + 1]?.timestamp_ms ?? m.timestamp_ms),
        text: m.content,
      })),
    );
  }
  await interviews.save(sql, interview, { ...base, status: 'completed' });
  // Recorded chunks are merged first; the conversation already is the transcript. A voice
  // interview's browser is still sending its last recorded piece: processing waits for it.
  const voice = interview.interview_mode === 'voice';
  await queueProcessing(services, interview, sql, chunks || voice ? 'deriving_media' : undefined, voice ? new Date(Date.now() + LAST_PIECE_GRACE_MS) : undefined);
  return true;
}

/** Gives a participant who left `conductorGraceSeconds` to come back before the interview ends on its own. */
export async function armFinalization(services: Services, interview: InterviewRow, sql: Sql): Promise<Date> {
  const at = new Date(Date.now() + services.config.conductorGraceSeconds * 1000);
  await interviews.save(sql, interview, { finalize_after: at });
  await addJob(sql, 'conductor_finalize', { interviewId: interview.id }, { jobKey: `conductor:${interview.id}:finalize`, runAt: at });
  return at;
}
