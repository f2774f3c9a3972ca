import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf, projectOf, type Ctx } from '../../core/context.ts';
import { DomainError, NotFoundError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, deletes, readOnly, sqlWhere, Timestamp, updates, isoRequired } from '../common.ts';
import { projectRefOf, findStudy } from '../studies/record.ts';
import { findIntakeRow } from '../intakes/defaults.ts';
import { responseInProject } from '../intakes/record.ts';
import { Session, SessionIdParam, findInterview, sessionRecord } from './record.ts';
import { interviewPrefix } from './artifacts.ts';
import { TASK_FOR_STEP } from './pipeline.ts';
import { inTransaction } from '../../core/tx.ts';
import { interviews } from './rows.ts';

export const listInterviews = capability({
  name: 'interviews.list',
  title: 'List interviews',
  description:
    'Lists a project\'s interviews, newest first, with paging and filters on status, processing_status and study. ' +
    'Use it to find interviews to read or retry, for example the failed ones (processing_status failed) or those of one study.',
  input: z.strictObject({
    status: z.enum(['created', 'in_progress', 'completed', 'abandoned']).optional(),
    processing_status: z.enum(['not_started', 'pending', 'processing', 'processed', 'failed']).optional(),
    study_ref: z.string().max(64).optional(),
    limit: z.number().int().min(1).max(200).default(50),
    offset: z.number().int().min(0).default(0),
  }),
  output: z.object({ sessions: z.array(Session), total: z.number().int() }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions' },
  async handler(ctx, input) {
    const where = sqlWhere('project_id = $1', projectOf(ctx).project.id);
    if (input.status) where.add('status = ?', input.status);
    if (input.processing_status) where.add('processing_status = ?', input.processing_status);
    if (input.study_ref) where.add('study_id = ?', (await findStudy(ctx, input.study_ref)).id);
    const pool = ctx.services.db.pool;
    const [count, rows] = await Promise.all([
      pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM interviews WHERE ${where.clause}`, where.bind),
      interviews.select(pool, where.clause, where.bind, `ORDER BY created_at DESC, id DESC LIMIT ${input.limit} OFFSET ${input.offset}`),
    ]);
    const ref = projectRefOf(ctx);
    return { sessions: rows.map((r) => sessionRecord(r, ref)), total: count.rows[0].n };
  },
});

/** Study to bind an interview to: an active study of the project, by handle or ref. */
export async function activeStudy(ctx: Ctx, ref: string | undefined) {
  if (!ref) return null;
  const study = await findStudy(ctx, ref);
  if (study.status !== 'active') throw new DomainError(`Study ${ref} is not active, so it does not take interviews`, { code: 'study_not_active', action: 'Activate the study or leave study_ref out' });
  return study;
}

export const createInterview = capability({
  name: 'interviews.create',
  title: 'Create an interview',
  description:
    'Creates an interview record to run live or fill in later (participant, mode, optional study and intake response). ' +
    'Use it to start an interview record yourself; imported transcripts (interviews.import_transcript) and widget sessions create their own.',
  input: z.strictObject({
    participant_name: z.string().trim().max(200).optional(),
    participant_email: z.email().max(320).optional(),
    interview_mode: z.enum(['voice', 'text', 'screen']).default('voice'),
    study_ref: z.string().max(64).optional(),
    screener_id: z.string().max(64).optional(),
    screener_response_id: z.string().max(64).optional(),
  }),
  output: z.object({ session: Session }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/sessions', status: 201 },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    await ctx.services.billing.checkInterviewAllowed(project);
    const study = await activeStudy(ctx, input.study_ref);
    const intake = input.screener_id ? await findIntakeRow(project.id, input.screener_id, ctx.services.db.pool) : null;
    if (input.screener_id && !intake) throw new NotFoundError('screener_id: no such intake in this project');
    let responseId: string | null = null;
    if (input.screener_response_id) {
      const response = await responseInProject(project.id, input.screener_response_id, intake?.id ?? null, ctx.services.db.pool);
      if (!response) throw new NotFoundError('screener_response_id: no such response in this project');
      responseId = response.id;
    }
    const row = await interviews.insert(ctx.services.db.pool, {
      id: newId('int'),
      project_id: project.id,
      study_id: study?.id ?? null,
      intake_id: intake?.id ?? null,
      intake_response_id: responseId,
      source: 'api',
      status: 'created',
      processing_status: 'not_started',
      interview_mode: input.interview_mode,
      participant_name: input.participant_name ?? null,
      participant_email: input.participant_email ?? null,
      created_by: principalOf(ctx).userId,
    });
    return { session: sessionRecord(row, projectRefOf(ctx)) };
  },
});

const Message = z.object({ id: z.number(), role: z.string(), content: z.string(), segment_id: z.string().nullable(), timestamp_ms: z.number(), audio_chunk_index: z.number().int().nullable().describe('The recorded answer a spoken message was transcribed from'), created_at: Timestamp });
const Event = z.object({ id: z.number(), event_type: z.string(), timestamp_ms: z.number(), event_line: z.string(), data: z.record(z.string(), z.unknown()), created_at: Timestamp });
const Chunk = z.object({ type: z.string(), chunk_index: z.number().int(), mime_type: z.string(), size: z.number(), started_ms: z.number().int().nullable().describe('Where the piece starts on the interview\'s clock'), created_at: Timestamp });

export const getInterview = capability({
  name: 'interviews.get',
  title: 'Read an interview',
  description:
    'Returns an interview with its conductor messages, recorded events and media chunks (the transcript has its own tool). ' +
    'Use it to check an interview\'s state and raw record; read what was said with interviews.transcript.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: z.object({ session: Session.extend({ messages: z.array(Message), events: z.array(Event), chunks: z.array(Chunk) }) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/sessions/:sessionId' },
  async handler(ctx, input) {
    const row = await findInterview(ctx, input.sessionId);
    const pool = ctx.services.db.pool;
    const [messages, events, chunks] = await Promise.all([
      pool.query(`SELECT id, role, content, segment_id, timestamp_ms, audio_chunk_index, created_at FROM interview_messages WHERE interview_id = $1 ORDER BY timestamp_ms, id LIMIT 5000`, [row.id]),
      pool.query(`SELECT id, event_type, timestamp_ms, event_line, data, created_at FROM interview_events WHERE interview_id = $1 ORDER BY timestamp_ms, id LIMIT 5000`, [row.id]),
      pool.query(`SELECT type, chunk_index, mime_type, size, started_ms, created_at FROM media_chunks WHERE interview_id = $1 ORDER BY type, chunk_index`, [row.id]),
    ]);
    const stamp = <T extends { created_at: Date }>(r: T) => ({ ...r, created_at: isoRequired(r.created_at) });
    return {
      session: {
        ...sessionRecord(row, projectRefOf(ctx)),
        messages: messages.rows.map(stamp),
        events: events.rows.map(stamp),
        chunks: chunks.rows.map(stamp),
      },
    };
  },
});

/** Interview status moves (docs/decisions.md). */
const STATUS_MOVES: Record<string, string[]> = {
  created: ['in_progress', 'completed', 'abandoned'],
  in_progress: ['completed', 'abandoned'],
  completed: [],
  abandoned: [],
};

export const updateInterview = capability({
  name: 'interviews.update',
  title: 'Update an interview',
  description:
    'Changes an interview\'s status (created → in_progress → completed, or abandoned), summary, consent flags or participant. ' +
    'Use it to record an interview\'s outcome or correct its participant details; media and transcripts have their own upload and import tools.',
  input: z.strictObject({
    sessionId: SessionIdParam,
    status: z.enum(['created', 'in_progress', 'completed', 'abandoned']).optional(),
    summary: z.string().max(20_000).nullable().optional(),
    consent_recording: z.boolean().optional(),
    consent_data_use: z.boolean().optional(),
    participant_name: z.string().trim().max(200).nullable().optional(),
    participant_email: z.email().max(320).nullable().optional(),
  }),
  output: z.object({ session: Session }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'PATCH', path: 'P/sessions/:sessionId' },
  async handler(ctx, { sessionId, ...changes }) {
    if (!Object.keys(changes).length) throw new ValidationError('Nothing to update: send at least one field');
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const interview = await findInterview(ctx, sessionId, sql, true);
      if (changes.status && changes.status !== interview.status && !STATUS_MOVES[interview.status]?.includes(changes.status)) {
        throw new DomainError(`A ${interview.status} interview cannot become ${changes.status}`, { code: 'interview_status_transition_invalid' });
      }
      const extra = changes.status === 'in_progress' && !interview.started_at ? { started_at: new Date() } : changes.status === 'completed' && !interview.ended_at ? { ended_at: new Date() } : {};
      return interviews.save(sql, interview, { ...changes, ...extra });
    });
    return { session: sessionRecord(row, projectRefOf(ctx)) };
  },
});

export const deleteInterview = capability({
  name: 'interviews.delete',
  title: 'Delete an interview',
  description: 'Deletes an interview with its transcript, events, evidence and every stored recording and artifact. Cannot be undone.',
  input: z.strictObject({ sessionId: SessionIdParam }),
  output: z.object({ success: z.boolean(), dbRowsDeleted: z.number().int(), objectsDeleted: z.number().int() }),
  annotations: deletes,
  scope: 'write',
  access: 'project',
  rest: { method: 'DELETE', path: 'P/sessions/:sessionId' },
  async handler(ctx, input) {
    const { db, storage } = ctx.services;
    const interview = await findInterview(ctx, input.sessionId);
    const { rows: stored } = await db.pool.query<{ storage_key: string }>(
      'SELECT storage_key FROM interview_artifacts WHERE interview_id = $1 UNION ALL SELECT storage_key FROM media_chunks WHERE interview_id = $1',
      [interview.id],
    );
    const keys = stored.map((r) => r.storage_key);
    const rows = await inTransaction(db.pool, async (sql) => {
      const { rows: [counts] } = await sql.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM transcript_segments WHERE interview_id = $1) + (SELECT count(*) FROM interview_events WHERE interview_id = $1)
              + (SELECT count(*) FROM interview_messages WHERE interview_id = $1) + (SELECT count(*) FROM interview_artifacts WHERE interview_id = $1)
              + (SELECT count(*) FROM media_chunks WHERE interview_id = $1) + (SELECT count(*) FROM signals WHERE interview_id = $1) AS n`,
        [interview.id],
      );
      // Queued steps go too (a running one finds the interview gone and stops).
      for (const step of Object.keys(TASK_FOR_STEP)) {
        await sql.query(`SELECT graphile_worker.remove_job($1)`, [`interview:${interview.id}:${step}`]);
      }
      await sql.query('DELETE FROM interviews WHERE id = $1', [interview.id]);
      return 1 + Number(counts.n);
    });
    let objects = 0;
    for (const key of keys) {
      if (await storage.head(key)) {
        await storage.delete(key);
        objects++;
      }
    }
    objects += await storage.deletePrefix(interviewPrefix(interview.project_id, interview.id));
    return { success: true, dbRowsDeleted: rows, objectsDeleted: objects };
  },
});

/** Ids must all be the caller's; unknown ones are reported rather than silently skipped. */
export async function interviewsByIds(ctx: Ctx, ids: string[]) {
  return interviews.select(ctx.services.db.pool, 'project_id = $1 AND id = ANY($2)', [projectOf(ctx).project.id, ids]);
}
