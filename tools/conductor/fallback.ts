import type { Logger } from '../../core/logger.ts';
import { questionsOf } from './script.ts';
import type { Interviewer, Talk, TalkState } from './interviewer.ts';

/**
 * The interviewer's next turn, or, when reading the answer fails (a bug in the built-in rules
 * or the model's fallback), the next scripted question: the participant is never shown an
 * internal error for what they typed. The failure is logged as an error, so it is fixed.
 */
export async function nextTurn(interviewer: Interviewer, talk: Talk, log: Logger): Promise<{ say: string | null; state: TalkState }> {
  try {
    return await interviewer.next(talk);
  } catch (err) {
    log.error('conductor: the interviewer could not read this answer; the next scripted question is asked', { segment_id: talk.segment.id, error: err instanceof Error ? err.message : String(err) });
    const question = talk.turns.length ? talk.state.question + 1 : 0;
    return { say: questionsOf(talk.segment)[question] ?? null, state: { question, follow_ups: 0 } };
  }
}

/** A line the built-in interviewer adds (an acknowledgement, a reply during the task), or none when making it fails. */
export function lineOrNone(make: () => string | null, log: Logger): string | null {
  try {
    return make();
  } catch (err) {
    log.error('conductor: a reply line could not be made; none is said', { error: err instanceof Error ? err.message : String(err) });
    return null;
  }
}
