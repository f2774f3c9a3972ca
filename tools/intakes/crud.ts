import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { ConflictError, ValidationError } from '../../core/errors.ts';
import { creates, deletes, Handle, readOnly, Success, updates, RESERVED_HANDLES } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { createIntakeRow, handleTaken } from './defaults.ts';
import { intakeResponses, intakes } from './rows.ts';
import { inTransaction } from '../../core/tx.ts';
import { IntakeStatus, QuestionList, insertQuestions, intakeFields } from './fields.ts';
import { Intake, Question, Response, ScreenerIdParam, findIntake, intakeRecord, questionRecord, questionsOf, responseRecord } from './record.ts';

export const listIntakes = capability({
  name: 'intakes.list',
  title: 'List intakes',
  description: 'Lists the intakes (screeners) of a project with their response counts. An intake screens participants before an interview.',
  input: z.strictObject({ status: IntakeStatus.optional() }),
  output: z.object({ intakes: z.array(Intake) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/screeners', aliases: ['P/intakes'] },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const rows = await (input.status
      ? intakes.select(ctx.services.db.pool, 'project_id = $1 AND status = $2', [project.id, input.status], 'ORDER BY created_at ASC')
      : intakes.select(ctx.services.db.pool, 'project_id = $1', [project.id], 'ORDER BY created_at ASC'));
    const ref = projectRefOf(ctx);
    return { intakes: rows.map((i) => intakeRecord(i, ref)) };
  },
});

export const createIntake = capability({
  name: 'intakes.create',
  title: 'Create an intake',
  description:
    'Creates an intake (screener): a welcome, consent text, optional participant cap and questions. Questions are single_choice, ' +
    'multiple_choice, yes_no, short_text, long_text, email, number or scale; qualification_rules decide who qualifies, e.g. ' +
    '{ "qualify": ["Weekly", "Daily"] } or { "min": 18 }.',
  input: z.strictObject({
    title: z.string().trim().min(1).max(200),
    handle: Handle.optional(),
    status: IntakeStatus.default('active'),
    ...intakeFields,
    questions: QuestionList.default([]),
  }),
  output: z.object({ intake: Intake, questions: z.array(Question) }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/screeners', status: 201, aliases: ['P/intakes'] },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    if (input.handle && RESERVED_HANDLES.has(input.handle)) throw new ConflictError(`The handle "${input.handle}" is reserved`, { code: 'handle_reserved' });
    const { questions, ...fields } = input;
    const result = await inTransaction(ctx.services.db.pool, async (sql) => {
      if (input.handle && (await handleTaken(project.id, input.handle, sql))) {
        throw new ConflictError(`An intake with the handle "${input.handle}" already exists`, { code: 'handle_taken' });
      }
      const intake = await createIntakeRow(project.id, fields, sql);
      const rows = await insertQuestions(intake.id, questions, 0, sql);
      return { intake, rows };
    });
    return { intake: intakeRecord(result.intake, projectRefOf(ctx)), questions: result.rows.map(questionRecord) };
  },
});

export const getIntake = capability({
  name: 'intakes.get',
  title: 'Read an intake',
  description:
    'Returns an intake with its questions (including qualification rules) and its responses, newest first. ' +
    'Use it to see who applied through an intake and whether they qualified, or to check its questions before changing them.',
  input: z.strictObject({ screenerId: ScreenerIdParam }),
  output: z.object({ intake: Intake, questions: z.array(Question), responses: z.array(Response) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/screeners/:screenerId', aliases: ['P/intakes/:screenerId'] },
  async handler(ctx, input) {
    const intake = await findIntake(ctx, input.screenerId);
    const pool = ctx.services.db.pool;
    const [questions, responses] = await Promise.all([
      questionsOf(intake.id, pool),
      intakeResponses.select(pool, 'intake_id = $1', [intake.id], 'ORDER BY created_at DESC LIMIT 500'),
    ]);
    return { intake: intakeRecord(intake, projectRefOf(ctx)), questions: questions.map(questionRecord), responses: responses.map(responseRecord) };
  },
});

export const updateIntake = capability({
  name: 'intakes.update',
  title: 'Update an intake',
  description: 'Changes an intake\'s texts, colour, participant cap or status (active, paused, closed). Questions have their own tools.',
  input: z.strictObject({ screenerId: ScreenerIdParam, title: z.string().trim().min(1).max(200).optional(), status: IntakeStatus.optional(), ...intakeFields }),
  output: z.object({ intake: Intake }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'PATCH', path: 'P/screeners/:screenerId', aliases: ['P/intakes/:screenerId'] },
  async handler(ctx, input) {
    const { screenerId, ...changes } = input;
    if (!Object.keys(changes).length) throw new ValidationError('Nothing to update: send at least one field');
    const intake = await inTransaction(ctx.services.db.pool, async (sql) => {
      const row = await findIntake(ctx, screenerId, sql, true);
      return (await intakes.update(sql, row.id, changes))!;
    });
    return { intake: intakeRecord(intake, projectRefOf(ctx)) };
  },
});

export const deleteIntake = capability({
  name: 'intakes.delete',
  title: 'Delete an intake',
  description:
    'Deletes an intake with its questions and responses; studies that used it are left without an intake. ' +
    'Use it only for an intake that is no longer needed, since its responses are deleted with it.',
  input: z.strictObject({ screenerId: ScreenerIdParam }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'project',
  rest: { method: 'DELETE', path: 'P/screeners/:screenerId', aliases: ['P/intakes/:screenerId'] },
  async handler(ctx, input) {
    const intake = await findIntake(ctx, input.screenerId);
    await ctx.services.db.pool.query('DELETE FROM intakes WHERE id = $1', [intake.id]);
    return { success: true };
  },
});
