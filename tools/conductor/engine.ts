import type { Transaction } from 'sequelize';
import type { Services } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';
import { DomainError } from '../../core/errors.ts';
import { modelAccess } from '../interviews/model-access.ts';
import { elapsedMs, recordEvent } from '../sdk/session-access.ts';
import { segmentsOf, type Segment } from './script.ts';
import { NEW_TALK, modelInterviewer, ruleInterviewer, type Interviewer, type TalkState, type Turn } from './interviewer.ts';
import { endInterview, isEnded } from './end.ts';

/** Persisted on the interview (`conductor_state`), so any process can pick the interview up. */
export interface ConductorState {
  segment: number;
  talk: TalkState;
  awaiting: 'answer' | 'observe' | null;
  finished: boolean;
  checkpoint?: { snapshot: unknown; reason: string | null; at: string };
}
export const NEW_STATE: ConductorState = { segment: 0, talk: NEW_TALK, awaiting: null, finished: false };

export interface Message {
  role: 'conductor' | 'participant';
  kind: 'speak' | 'ask' | 'observe' | 'closing' | 'answer';
  text: string;
  segment_id: string | null;
  timestamp_ms: number;
}

export type Input = { type: 'start' } | { type: 'answer'; text: string } | { type: 'observe_done' } | { type: 'end' };

export interface Outcome {
  messages: Message[];
  state: ConductorState;
  segment: { index: number; total: number; id: string; mode: string; title: string } | null;
  ended: boolean;
}

const OBSERVE_DEFAULT = 'Go ahead and use the product as you normally would. Press Done when you have finished.';
const CLOSING = 'That is everything I wanted to ask. Thank you for your time!';

export const stateOf = (interview: Pick<InterviewRow, 'conductor_state'>): ConductorState => ({ ...NEW_STATE, ...(interview.conductor_state as Partial<ConductorState> | null) });

async function interviewerFor(services: Services, projectId: string): Promise<Interviewer> {
  const { llm } = await modelAccess(services, projectId);
  return llm?.apiKey ? modelInterviewer(llm, services.log) : ruleInterviewer;
}

async function segmentTurns(services: Services, interviewId: string, segmentId: string, transaction: Transaction): Promise<Turn[]> {
  const [rows] = await services.db.sequelize.query(
    `SELECT role, content FROM interview_messages WHERE interview_id = $1 AND segment_id = $2 ORDER BY timestamp_ms, id`,
    { bind: [interviewId, segmentId], transaction },
  );
  return (rows as Array<{ role: Turn['role']; content: string }>).map((r) => ({ role: r.role, text: r.content }));
}

/**
 * Runs the study script one input at a time, in the caller's transaction with the interview
 * row locked: stores the participant's message, decides what the conductor says next, stores
 * that with its timestamp, and saves where the script stands.
 */
export async function conduct(services: Services, interview: InterviewRow, input: Input, transaction: Transaction): Promise<Outcome> {
  const study = interview.study_id ? await services.models.Study.findByPk(interview.study_id, { transaction }) : null;
  const segments = segmentsOf(study?.script_json);
  let state = stateOf(interview);
  const messages: Message[] = [];
  const now = () => elapsedMs(interview);
  const say = async (kind: Message['kind'], text: string, segment: Segment | null, role: Message['role'] = 'conductor') => {
    const m: Message = { role, kind, text, segment_id: segment?.id ?? null, timestamp_ms: now() };
    await services.db.sequelize.query(
      `INSERT INTO interview_messages (interview_id, role, content, segment_id, timestamp_ms) VALUES ($1, $2, $3, $4, $5)`,
      { bind: [interview.id, role, text, m.segment_id, m.timestamp_ms], transaction },
    );
    messages.push(m);
  };
  const interviewer = await interviewerFor(services, interview.project_id);

  /** Enters segments from state.segment until one waits for the participant, or the script ends. */
  const enter = async () => {
    while (state.segment < segments.length) {
      const segment = segments[state.segment];
      await recordEvent(services, interview.id, { type: 'segment_started', timestampMs: now(), line: `${segment.mode}: ${segment.title}`, data: { segment_id: segment.id, mode: segment.mode } }, transaction);
      if (segment.mode === 'speak') {
        await say('speak', segment.speak_text ?? segment.title, segment);
        state = { ...state, segment: state.segment + 1 };
        continue;
      }
      if (segment.mode === 'observe') {
        await say('observe', segment.instruction ?? OBSERVE_DEFAULT, segment);
        state = { ...state, awaiting: 'observe' };
        return;
      }
      const first = await interviewer.next(segment, [], NEW_TALK);
      if (first.say) {
        await say('ask', first.say, segment);
        state = { ...state, talk: first.state, awaiting: 'answer' };
        return;
      }
      state = { ...state, segment: state.segment + 1 };
    }
    await say('closing', CLOSING, null);
    state = { ...state, awaiting: null, finished: true };
  };

  if (isEnded(interview) && input.type !== 'start' && input.type !== 'end') {
    throw new DomainError('This interview has ended', { code: 'session_ended' });
  }
  if (state.finished && input.type !== 'start' && input.type !== 'end') {
    throw new DomainError('This interview has finished', { code: 'session_ended' });
  }
  if (input.type === 'start') {
    if (!isEnded(interview) && !state.finished && state.awaiting === null) await enter();
  } else if (input.type === 'answer') {
    if (state.awaiting !== 'answer') throw new DomainError('The conductor is not waiting for an answer now', { code: 'not_expecting_answer' });
    const segment = segments[state.segment];
    await say('answer', input.text, segment, 'participant');
    const next = await interviewer.next(segment, await segmentTurns(services, interview.id, segment.id, transaction), state.talk);
    if (next.say) {
      await say('ask', next.say, segment);
      state = { ...state, talk: next.state };
    } else {
      state = { ...state, segment: state.segment + 1, talk: NEW_TALK, awaiting: null };
      await enter();
    }
  } else if (input.type === 'observe_done') {
    if (state.awaiting !== 'observe') throw new DomainError('The conductor is not observing now', { code: 'not_observing' });
    state = { ...state, segment: state.segment + 1, awaiting: null };
    await enter();
  }
  // Any frame shows the participant is here: a pending finalisation no longer applies.
  await interview.update({ conductor_state: state as never, conductor_seen_at: new Date(), finalize_after: null }, { transaction });
  let ended = false;
  if (state.finished || input.type === 'end') ended = await endInterview(services, interview, transaction);
  const current = segments[state.segment];
  return {
    messages,
    state,
    segment: current && !state.finished ? { index: state.segment, total: segments.length, id: current.id, mode: current.mode, title: current.title } : null,
    ended: ended || interview.status === 'completed' || interview.status === 'abandoned',
  };
}
