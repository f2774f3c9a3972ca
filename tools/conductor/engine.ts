import { inTransaction, type Sql } from '../../core/tx.ts';
import { interviews } from '../interviews/rows.ts';
import type { Services } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';
import { ConflictError, DomainError, NotFoundError } from '../../core/errors.ts';
import { modelAccess } from '../interviews/model-access.ts';
import { elapsedMs, recordEvent } from '../sdk/session-access.ts';
import { questionsOf, segmentsOf, type Segment } from './script.ts';
import { NEW_TALK, addsNothing, modelInterviewer, notesHeard, ruleInterviewer, type Interviewer, type TalkState, type Turn } from './interviewer.ts';
import { ANYTHING_MORE, acknowledgement, endsTask, GAVE_UP, givesUp, heardAs, NOTED_LAST, RATING_SCALE, SKIPPED, STOPPING, whileWorking, words } from './heard.ts';
import { goalIn, grounded } from './goal.ts';
import { endInterview, isEnded } from './end.ts';
import { lineOrNone, nextTurn } from './fallback.ts';
import { studyById } from '../studies/record.ts';
import { guideReply } from './questions.ts';
import { spokenText } from './speak.ts';

/** Persisted on the interview (`conductor_state`), so any process can pick the interview up. */
export interface ConductorState {
  segment: number;
  talk: TalkState;
  awaiting: 'answer' | 'observe' | null;
  finished: boolean;
  /** Counts applied inputs: a plan made from an older turn is thrown away and made again. */
  turn: number;
  checkpoint?: { snapshot: unknown; reason: string | null; at: string };
}
export const NEW_STATE: ConductorState = { segment: 0, talk: NEW_TALK, awaiting: null, finished: false, turn: 0 };

export interface Message {
  role: 'conductor' | 'participant';
  kind: 'speak' | 'ask' | 'observe' | 'closing' | 'answer';
  text: string;
  segment_id: string | null;
  timestamp_ms: number;
  /** The recorded answer this message was transcribed from (voice interviews). */
  audio_chunk_index?: number | null;
}

/** A spoken answer: the recorded piece it came from and where that piece starts on the interview's clock. */
export interface SpokenFrom {
  /** The recorded answer, when it was recorded on its own (not in a realtime call's running recording). */
  chunk_index: number | null;
  started_ms: number | null;
}

export type Input = { type: 'start' } | { type: 'answer'; text: string; spoken?: SpokenFrom } | { type: 'observe_done' } | { type: 'end' };

export interface Outcome {
  messages: Message[];
  state: ConductorState;
  segment: { index: number; total: number; id: string; mode: string; title: string } | null;
  ended: boolean;
  /** The interview's clock when this was written, so a browser can place its recordings on it. */
  elapsed_ms: number;
}

interface Plan {
  messages: Message[];
  events: Array<{ type: string; timestampMs: number; line: string; data: Record<string, unknown> }>;
  state: ConductorState;
  end: boolean;
  segment: Outcome['segment'];
}

const CLOSING = 'That is everything I wanted to ask. Thank you for your time!';

export const stateOf = (interview: Pick<InterviewRow, 'conductor_state'>): ConductorState => ({ ...NEW_STATE, ...(interview.conductor_state as Partial<ConductorState> | null) });

async function interviewerFor(services: Services, projectId: string): Promise<Interviewer> {
  const { llm } = await modelAccess(services, projectId);
  return llm?.apiKey ? modelInterviewer(llm, services.log) : ruleInterviewer;
}

/** A stored message of the conversation, with the segment it belongs to. */
type Said = Turn & { segment_id: string | null };

/**
 * The conversation so far, in order, read once per planned turn (nothing is written while a turn
 * is planned): what the segment, the interview and the participant said are all cut from it.
 */
function conversationOf(services: Services, interviewId: string): () => Promise<Said[]> {
  let read: Promise<Said[]> | null = null;
  return () =>
    (read ??= services.db.pool
      .query<{ role: Turn['role']; content: string; segment_id: string | null }>(
        `SELECT role, content, segment_id FROM interview_messages WHERE interview_id = $1 ORDER BY timestamp_ms, id`,
        [interviewId],
      )
      .then(({ rows }) => rows.map((r) => ({ role: r.role, text: r.content, segment_id: r.segment_id }))));
}

const turnsIn = (said: Said[], segmentId: string): Turn[] => said.filter((t) => t.segment_id === segmentId).map(({ role, text }) => ({ role, text }));
/** What the participant said in this interview outside the given segment. */
const saidBefore = (said: Said[], segmentId: string): string[] => said.filter((t) => t.role === 'participant' && t.segment_id !== segmentId).map((t) => t.text);
/** Everything the conductor has said in this interview, one line each. */
/** What the participant typed during the task just before segment `index`, if that was a task. */
const notesBefore = (said: Said[], segments: Segment[], index: number): string[] => {
  const task = segments[index - 1];
  return task?.mode === 'observe' ? said.filter((t) => t.role === 'participant' && t.segment_id === task.id).map((t) => t.text) : [];
};
/** How long the study's invitation says the interview takes, when it says. */
const minutesOf = (invitation: unknown): number | undefined => {
  const minutes = (invitation as { panel?: { duration_minutes?: unknown } } | null)?.panel?.duration_minutes;
  return typeof minutes === 'number' ? minutes : undefined;
};
const conductorSaid = (said: Said[]): string => said.filter((t) => t.role === 'conductor').map((t) => t.text).join('\n');

/**
 * Decides what an input leads to without writing anything: the participant's message, what
 * the conductor says next (possibly asking the model, so this runs outside any transaction),
 * and where the script will stand.
 */
async function plan(services: Services, interview: InterviewRow, input: Input): Promise<Plan> {
  const study = interview.study_id ? await studyById(interview.study_id, services.db.pool) : null;
  const segments = segmentsOf(study?.script_json);
  /** A name or e-mail came with the interview: what is kept with the answers, for "Is this anonymous?". */
  const named = Boolean(interview.participant_name || interview.participant_email);
  let state = stateOf(interview);
  const messages: Message[] = [];
  const events: Plan['events'] = [];
  const now = () => elapsedMs(interview);
  const say = (kind: Message['kind'], text: string, segment: Segment | null, role: Message['role'] = 'conductor') =>
    messages.push({ role, kind, text, segment_id: segment?.id ?? null, timestamp_ms: now() });
  const interviewer = await interviewerFor(services, interview.project_id);
  const conversation = conversationOf(services, interview.id);

  /** Enters segments from state.segment until one waits for the participant, or the script ends. */
  const enter = async () => {
    while (state.segment < segments.length) {
      const segment = segments[state.segment];
      events.push({ type: 'segment_started', timestampMs: now(), line: `${segment.mode}: ${segment.title}`, data: { segment_id: segment.id, mode: segment.mode } });
      if (segment.mode === 'speak') {
        // A closing speak segment is the interview's last word: nothing generic follows it.
        const last = state.segment === segments.length - 1;
        say(last ? 'closing' : 'speak', (segment.speak_text && spokenText(segment.speak_text).said) || segment.title, segment);
        state = { ...state, segment: state.segment + 1 };
        if (last) {
          state = { ...state, awaiting: null, finished: true };
          return;
        }
        continue;
      }
      if (segment.mode === 'observe') {
        // A task prompt for the participant; then silence until they say they are done.
        say('observe', grounded(questionsOf(segment)[0], goalIn(await conversation())), segment);
        state = { ...state, awaiting: 'observe' };
        return;
      }
      const notes = notesBefore(await conversation(), segments, state.segment);
      const first = await nextTurn(interviewer, { segment, turns: [], state: NEW_TALK, earlier: saidBefore(await conversation(), segment.id), notes }, services.log);
      if (first.say) {
        // Notes typed during the task just done were read: the first question says so.
        const thanks = notes.length && interviewer === ruleInterviewer ? lineOrNone(() => notesHeard(notes), services.log) : null;
        say('ask', `${thanks ?? ''}${first.say}`, segment);
        state = { ...state, talk: first.state, awaiting: 'answer' };
        return;
      }
      state = { ...state, segment: state.segment + 1 };
    }
    say('closing', CLOSING, null);
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
  } else if (input.type === 'answer' && state.awaiting === 'observe') {
    // Thinking aloud in writing while they work: kept in the transcript, and the conductor stays silent.
    say('answer', input.text, segments[state.segment], 'participant');
    const segment = segments[state.segment];
    // "Done." or "OK I give up" typed while working is the end of the task, as the button is.
    // "Can I skip this one?" while working: the task is skipped, as its own "I'm done" would.
    const kind = heardAs(input.text);
    const skips = kind === 'skip';
    if (endsTask(input.text) || skips) {
      if (skips) say('speak', SKIPPED, segment);
      else if (givesUp(input.text)) say('speak', GAVE_UP, segment);
      state = { ...state, segment: state.segment + 1, awaiting: null };
      await enter();
    } else if (kind === 'stop') return letGo(segment);
    else {
      // A question while they work is heard (the interviewer cannot help with the task); thinking aloud is not answered.
      const said = await conversation();
      const task = turnsIn(said, segment.id).find((t) => t.role === 'conductor')?.text;
      const reply = lineOrNone(() => whileWorking(input.text, { said: conductorSaid(said), recorded: interview.consent_recording === true, task, minutes: minutesOf(study?.invitation_json), named, reply: guideReply(segment.instruction ?? '') }), services.log);
      if (reply) say('speak', reply, segment);
    }
  } else if (input.type === 'answer') {
    if (state.awaiting !== 'answer') throw new DomainError('The conductor is not waiting for an answer now', { code: 'not_expecting_answer' });
    const segment = segments[state.segment];
    say('answer', input.text, segment, 'participant');
    if (input.spoken) {
      // A spoken answer is placed where the participant started speaking, and keeps its recording.
      const m = messages[messages.length - 1];
      m.audio_chunk_index = input.spoken.chunk_index;
      if (input.spoken.started_ms !== null) m.timestamp_ms = Math.min(m.timestamp_ms, input.spoken.started_ms);
    }
    const before = turnsIn(await conversation(), segment.id);
    const asked = before.findLast((t) => t.role === 'conductor')?.text;
    const lastPart = !segments.slice(state.segment + 1).some((s) => s.mode !== 'speak');
    // "no. bye" to the last "anything else?" is the answer: the study's own closing follows, not the early goodbye.
    const byeAtTheEnd = lastPart && ANYTHING_MORE.test(asked ?? '') && words(input.text) <= 6;
    const stops = heardAs(input.text) === 'stop';
    if (stops && !byeAtTheEnd) return letGo(segment);
    // The built-in interviewer cannot answer a participant's question, but says it heard it (and what it is) before going on.
    const spoken = conductorSaid(await conversation());
    const partsLeft = segments.slice(state.segment).filter((s) => s.mode !== 'speak').length;
    const minutes = minutesOf(study?.invitation_json);
    const rating = before.findLast((t) => t.role === 'conductor' && RATING_SCALE.test(t.text))?.text;
    const heard = interviewer === ruleInterviewer && !stops ? lineOrNone(() => acknowledgement(input.text, { said: spoken, partsLeft, recorded: interview.consent_recording === true, asked, minutes, named, rating }), services.log) : null;
    if (heard) say('speak', heard, segment);
    const turns = [...before, { role: 'participant' as const, text: input.text }];
    const next = await nextTurn(interviewer, { segment, turns, state: state.talk, earlier: saidBefore(await conversation(), segment.id), interview: spoken, notes: notesBefore(await conversation(), segments, state.segment) }, services.log);
    if (next.say) {
      say('ask', next.say, segment);
      state = { ...state, talk: next.state };
    } else {
      // Something added to "Is there anything else…?" at the end ("please, please fix the export") is heard before the closing.
      if (lastPart && !heard && interviewer === ruleInterviewer && ANYTHING_MORE.test(asked ?? '') && words(input.text) >= 3 && !addsNothing(input.text)) say('speak', NOTED_LAST, segment);
      state = { ...state, segment: state.segment + 1, talk: NEW_TALK, awaiting: null };
      await enter();
    }
  } else if (input.type === 'observe_done') {
    if (state.awaiting !== 'observe') throw new DomainError('The conductor is not observing now', { code: 'not_observing' });
    state = { ...state, segment: state.segment + 1, awaiting: null };
    await enter();
  }
  return done();

  /** Someone who wants to go is let go at once, thanked in words that fit leaving early (not the study's "that is everything"). */
  function letGo(segment: Segment): Plan {
    say('closing', STOPPING, segment);
    state = { ...state, segment: segments.length, talk: NEW_TALK, awaiting: null, finished: true };
    return done();
  }

  function done(): Plan {
    const current = segments[state.segment];
    return {
      messages,
      events,
      state: { ...state, turn: state.turn + 1 },
      end: state.finished || input.type === 'end',
      segment: current && !state.finished ? { index: state.segment, total: segments.length, id: current.id, mode: current.mode, title: current.title } : null,
    };
  }
}

/** Writes a plan in the caller's transaction, with the interview row locked. */
async function apply(services: Services, interview: InterviewRow, p: Plan, sql: Sql): Promise<Outcome> {
  for (const m of p.messages) {
    await sql.query(
      `INSERT INTO interview_messages (interview_id, role, content, segment_id, timestamp_ms, audio_chunk_index) VALUES ($1, $2, $3, $4, $5, $6)`,
      [interview.id, m.role, m.text, m.segment_id, m.timestamp_ms, m.audio_chunk_index ?? null],
    );
  }
  for (const e of p.events) await recordEvent(services, interview.id, e, sql);
  // Any frame shows the participant is here: a pending finalisation no longer applies.
  const state = { ...p.state, checkpoint: stateOf(interview).checkpoint };
  await interviews.save(sql, interview, { conductor_state: state as never, conductor_seen_at: new Date(), finalize_after: null });
  const ended = p.end ? await endInterview(services, interview, sql) : isEnded(interview);
  return { messages: p.messages, state, segment: p.segment, ended, elapsed_ms: elapsedMs(interview) };
}

/**
 * Runs the study script one input at a time. The next turn is planned holding no lock (a
 * model may take seconds), then written with the interview row locked if nothing moved the
 * interview meanwhile; otherwise it is planned again from the new state.
 */
export async function conduct(services: Services, interviewId: string, input: Input): Promise<Outcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [seen] = await interviews.select(services.db.pool, 'id = $1', [interviewId]);
    if (!seen) throw new NotFoundError('Interview not found', { code: 'session_not_found' });
    const p = await plan(services, seen, input);
    const outcome = await inTransaction(services.db.pool, async (sql) => {
      const [locked] = await interviews.select(sql, 'id = $1', [interviewId], 'FOR UPDATE');
      if (stateOf(locked).turn !== stateOf(seen).turn || locked.status !== seen.status) return null;
      return apply(services, locked, p, sql);
    });
    if (outcome) return outcome;
  }
  throw new ConflictError('The interview changed while this answer was being handled', { code: 'conductor_busy', retryable: true, action: 'Send it again' });
}
