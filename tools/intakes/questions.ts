import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { NotFoundError, ValidationError } from '../../core/errors.ts';
import { creates, deletes, Success, updates } from '../common.ts';
import { QuestionInput } from './questions-logic.ts';
import { QuestionList, checkQuestion, insertQuestions, questionColumns } from './fields.ts';
import { Question, ScreenerIdParam, findIntake, questionRecord, questionsOf } from './record.ts';
import { intakeQuestions } from './rows.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';

const QuestionIdParam = z.string().min(1).max(64);
const path = (suffix: string) => ({ path: `P/screeners/:screenerId/questions${suffix}`, aliases: [`P/intakes/:screenerId/questions${suffix}`] });

async function findQuestion(intakeId: string, questionId: string, sql: Sql) {
  const [q] = await intakeQuestions.select(sql, 'id = $1 AND intake_id = $2', [questionId, intakeId]);
  if (!q) throw new NotFoundError('Question not found');
  return q;
}

export const addQuestion = capability({
  name: 'intakes.add_question',
  title: 'Add an intake question',
  description: 'Adds one question at the end of an intake. Choice questions need options; qualification_rules decide who qualifies.',
  input: z.strictObject({ screenerId: ScreenerIdParam, ...QuestionInput.shape }),
  output: z.object({ question: Question }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', status: 201, ...path('') },
  async handler(ctx, { screenerId, ...question }) {
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const intake = await findIntake(ctx, screenerId, sql, true);
      const existing = await questionsOf(intake.id, sql);
      if (existing.length >= 50) throw new ValidationError('An intake has at most 50 questions');
      const next = existing.reduce((m, q) => Math.max(m, q.sort_order + 1), 0);
      return (await insertQuestions(intake.id, [question], next, sql))[0];
    });
    return { question: questionRecord(row) };
  },
});

export const replaceQuestions = capability({
  name: 'intakes.replace_questions',
  title: 'Replace all intake questions',
  description: 'Replaces the full question list of an intake in the order given. Existing answers keep their text but no longer match new question ids.',
  input: z.strictObject({ screenerId: ScreenerIdParam, questions: QuestionList }),
  output: z.object({ questions: z.array(Question) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  scope: 'write',
  access: 'project',
  rest: { method: 'PUT', ...path('') },
  async handler(ctx, input) {
    const rows = await inTransaction(ctx.services.db.pool, async (sql) => {
      const intake = await findIntake(ctx, input.screenerId, sql, true);
      await sql.query('DELETE FROM intake_questions WHERE intake_id = $1', [intake.id]);
      return insertQuestions(intake.id, input.questions, 0, sql);
    });
    return { questions: rows.map(questionRecord) };
  },
});

export const updateQuestion = capability({
  name: 'intakes.update_question',
  title: 'Update an intake question',
  description: 'Changes one question: text, type, required, options, bounds or qualification rules. The result must still fit together.',
  input: z.strictObject({ screenerId: ScreenerIdParam, questionId: QuestionIdParam, ...QuestionInput.partial().shape }),
  output: z.object({ question: Question }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'PATCH', ...path('/:questionId') },
  async handler(ctx, { screenerId, questionId, ...changes }) {
    if (!Object.keys(changes).length) throw new ValidationError('Nothing to update: send at least one field');
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const intake = await findIntake(ctx, screenerId, sql, true);
      const q = await findQuestion(intake.id, questionId, sql);
      const merged = QuestionInput.parse({
        question_text: q.question_text,
        question_type: q.question_type,
        required: q.required,
        options: q.options_json && q.question_type !== 'yes_no' ? JSON.parse(q.options_json) : undefined,
        min_value: q.min_value,
        max_value: q.max_value,
        qualification_rules: q.qualification_rules_json ? JSON.parse(q.qualification_rules_json) : null,
        ...changes,
      });
      checkQuestion(merged, 'question');
      return (await intakeQuestions.update(sql, q.id, questionColumns(merged)))!;
    });
    return { question: questionRecord(row) };
  },
});

export const deleteQuestion = capability({
  name: 'intakes.delete_question',
  title: 'Delete an intake question',
  description:
    'Removes one question from an intake. ' +
    'Use it to stop asking a question; responses already given keep their answer to it.',
  input: z.strictObject({ screenerId: ScreenerIdParam, questionId: QuestionIdParam }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'project',
  rest: { method: 'DELETE', ...path('/:questionId') },
  async handler(ctx, input) {
    await inTransaction(ctx.services.db.pool, async (sql) => {
      const intake = await findIntake(ctx, input.screenerId, sql, true);
      const q = await findQuestion(intake.id, input.questionId, sql);
      await sql.query('DELETE FROM intake_questions WHERE id = $1', [q.id]);
    });
    return { success: true };
  },
});

export const reorderQuestions = capability({
  name: 'intakes.reorder_questions',
  title: 'Reorder intake questions',
  description: 'Sets the order of an intake\'s questions. question_ids must list every question exactly once.',
  input: z.strictObject({ screenerId: ScreenerIdParam, question_ids: z.array(QuestionIdParam).max(50) }),
  output: z.object({ questions: z.array(Question) }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', ...path('/reorder') },
  async handler(ctx, input) {
    const rows = await inTransaction(ctx.services.db.pool, async (sql) => {
      const intake = await findIntake(ctx, input.screenerId, sql, true);
      const existing = await questionsOf(intake.id, sql);
      const ids = existing.map((q) => q.id).sort();
      if (new Set(input.question_ids).size !== input.question_ids.length || JSON.stringify([...input.question_ids].sort()) !== JSON.stringify(ids)) {
        throw new ValidationError('question_ids: must list every question of the intake exactly once');
      }
      await sql.query(
        `UPDATE intake_questions q SET sort_order = o.n - 1, updated_at = now() FROM unnest($1::text[]) WITH ORDINALITY AS o(id, n) WHERE q.id = o.id AND q.intake_id = $2`,
        [input.question_ids, intake.id],
      );
      return questionsOf(intake.id, sql);
    });
    return { questions: rows.map(questionRecord) };
  },
});
