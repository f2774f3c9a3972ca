import { z } from 'zod';
import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import type { Sql } from '../../core/tx.ts';
import { intakeQuestions, intakeResponses, intakes, type IntakeQuestionRow, type IntakeResponseRow, type IntakeRow } from './rows.ts';
import { NotFoundError } from '../../core/errors.ts';
import { Timestamp, isoRequired } from '../common.ts';
import type { StoredQuestion } from './questions-logic.ts';
import { findIntakeRow } from './defaults.ts';

export type { IntakeRow, IntakeQuestionRow, IntakeResponseRow };

const flag = (b: boolean) => (b ? 1 : 0);

export const Intake = z
  .object({
    ref: z.string(),
    project_ref: z.string(),
    title: z.string(),
    handle: z.string(),
    description: z.string().nullable(),
    welcome_message: z.string().nullable(),
    status: z.string().describe('active, paused or closed; only active intakes take responses'),
    auto_managed: z.number().describe('1 when created and managed with a study'),
    max_participants: z.number().nullable(),
    logo_storage_key: z.string().nullable(),
    brand_color: z.string(),
    thank_you_message: z.string(),
    disqualified_message: z.string(),
    consent_text: z.string(),
    complete_count: z.number(),
    qualified_count: z.number(),
    disqualified_count: z.number(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Intake' });

export const Question = z
  .object({
    id: z.string(),
    question_text: z.string(),
    question_type: z.string(),
    required: z.number(),
    sort_order: z.number(),
    options_json: z.string().nullable(),
    min_value: z.number().nullable(),
    max_value: z.number().nullable(),
    qualification_rules_json: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'IntakeQuestion' });

export const Response = z
  .object({
    id: z.string(),
    participant_name: z.string().nullable(),
    participant_email: z.string().nullable(),
    qualified: z.number().nullable(),
    qualification_reason: z.string().nullable(),
    answers_json: z.string(),
    session_id: z.string().nullable(),
    utm_source: z.string().nullable(),
    utm_medium: z.string().nullable(),
    utm_campaign: z.string().nullable(),
    consent_given: z.number(),
    created_at: Timestamp,
  })
  .meta({ id: 'IntakeResponse' });

export function intakeRecord(i: IntakeRow, projectRef: string): z.input<typeof Intake> {
  return {
    ref: i.id,
    project_ref: projectRef,
    title: i.title,
    handle: i.handle,
    description: i.description,
    welcome_message: i.welcome_message,
    status: i.status,
    auto_managed: flag(i.auto_managed),
    max_participants: i.max_participants,
    logo_storage_key: i.logo_storage_key,
    brand_color: i.brand_color,
    thank_you_message: i.thank_you_message,
    disqualified_message: i.disqualified_message,
    consent_text: i.consent_text,
    complete_count: i.complete_count,
    qualified_count: i.qualified_count,
    disqualified_count: i.disqualified_count,
    created_at: isoRequired(i.created_at),
    updated_at: isoRequired(i.updated_at),
  };
}

export function questionRecord(q: IntakeQuestionRow): z.input<typeof Question> {
  return {
    id: q.id,
    question_text: q.question_text,
    question_type: q.question_type,
    required: flag(q.required),
    sort_order: q.sort_order,
    options_json: q.options_json,
    min_value: q.min_value,
    max_value: q.max_value,
    qualification_rules_json: q.qualification_rules_json,
    created_at: isoRequired(q.created_at),
  };
}

export function responseRecord(r: IntakeResponseRow): z.input<typeof Response> {
  return {
    id: r.id,
    participant_name: r.participant_name,
    participant_email: r.participant_email,
    qualified: r.qualified === null ? null : flag(r.qualified),
    qualification_reason: r.qualification_reason,
    answers_json: r.answers_json,
    session_id: r.session_id,
    utm_source: r.utm_source,
    utm_medium: r.utm_medium,
    utm_campaign: r.utm_campaign,
    consent_given: flag(r.consent_given),
    created_at: isoRequired(r.created_at),
  };
}

export function storedQuestion(q: IntakeQuestionRow): StoredQuestion {
  return {
    id: q.id,
    question_text: q.question_text,
    question_type: q.question_type,
    required: q.required,
    options: q.options_json ? JSON.parse(q.options_json) : null,
    min_value: q.min_value,
    max_value: q.max_value,
    rules: q.qualification_rules_json ? JSON.parse(q.qualification_rules_json) : null,
  };
}

/** An intake's questions in their order. */
export function questionsOf(intakeId: string, sql: Sql): Promise<IntakeQuestionRow[]> {
  return intakeQuestions.select(sql, 'intake_id = $1', [intakeId], 'ORDER BY sort_order ASC, created_at ASC');
}

/** An intake by its id alone, or null: for callers that already hold a row of its project (a study). */
export async function intakeById(id: string, sql: Sql): Promise<IntakeRow | null> {
  const [intake] = await intakes.select(sql, 'id = $1', [id]);
  return intake ?? null;
}

/** A response to one of the project's intakes (to `intakeId`'s when given), or null. */
export async function responseInProject(projectId: string, responseId: string, intakeId: string | null, sql: Sql): Promise<IntakeResponseRow | null> {
  const [response] = await intakeResponses.select(
    sql,
    'id = $1 AND ($3::text IS NULL OR intake_id = $3) AND intake_id IN (SELECT id FROM intakes WHERE project_id = $2)',
    [responseId, projectId, intakeId],
  );
  return response ?? null;
}

/** Counts straight from the responses, so they stay right whatever order changes arrive in. */
export async function recount(intakeId: string, sql: Sql): Promise<void> {
  await sql.query(
    `UPDATE intakes SET
       complete_count = (SELECT count(*) FROM intake_responses WHERE intake_id = $1),
       qualified_count = (SELECT count(*) FROM intake_responses WHERE intake_id = $1 AND qualified),
       disqualified_count = (SELECT count(*) FROM intake_responses WHERE intake_id = $1 AND qualified = false),
       updated_at = now()
     WHERE id = $1`,
    [intakeId],
  );
}

/** An intake of the caller's project by ref or handle; `lock` takes it FOR UPDATE in the caller's transaction. */
export async function findIntake(ctx: Ctx, screenerId: string, sql: Sql = ctx.services.db.pool, lock = false): Promise<IntakeRow> {
  const { project } = projectOf(ctx);
  const intake = await findIntakeRow(project.id, screenerId, sql, lock);
  if (!intake) throw new NotFoundError('Intake not found');
  return intake;
}

export const ScreenerIdParam = z.string().min(1).max(64).describe('Intake ref (itk_...) or handle');

export function isFull(intake: IntakeRow): boolean {
  return intake.max_participants !== null && intake.qualified_count >= intake.max_participants;
}
