import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import type { Ctx } from '../../core/context.ts';
import { NotFoundError, ValidationError } from '../../core/errors.ts';
import { creates, deletes, Success, updates } from '../common.ts';
import { QuestionInput } from './questions-logic.ts';
import { QuestionList, checkQuestion, insertQuestions, questionColumns } from './fields.ts';
import { Question, ScreenerIdParam, findIntake, questionRecord, questionsOf } from './record.ts';
import type { Transaction } from 'sequelize';

const QuestionIdParam = z.string().min(1).max(64);
const path = (suffix: string) => ({ path: `P/screeners/:screenerId/questions${suffix}`, aliases: [`P/intakes/:screenerId/questions${suffix}`] });

async function findQuestion(ctx: Ctx, intakeId: string, questionId: string, transaction: Transaction) {
  const q = await ctx.services.models.IntakeQuestion.findOne({ where: { id: questionId, intake_id: intakeId }, transaction });
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
    const { models, db } = ctx.services;
    const row = await db.sequelize.transaction(async (transaction) => {
      const intake = await findIntake(ctx, screenerId, { transaction, lock: true });
      const existing = await questionsOf(models, intake.id, transaction);
      if (existing.length >= 50) throw new ValidationError('An intake has at most 50 questions');
      const next = existing.reduce((m, q) => Math.max(m, q.sort_order + 1), 0);
      return (await insertQuestions(models, intake.id, [question], next, transaction))[0];
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
    const { models, db } = ctx.services;
    const rows = await db.sequelize.transaction(async (transaction) => {
      const intake = await findIntake(ctx, input.screenerId, { transaction, lock: true });
      await models.IntakeQuestion.destroy({ where: { intake_id: intake.id }, transaction });
      return insertQuestions(models, intake.id, input.questions, 0, transaction);
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
    const row = await ctx.services.db.sequelize.transaction(async (transaction) => {
      const intake = await findIntake(ctx, screenerId, { transaction, lock: true });
      const q = await findQuestion(ctx, intake.id, questionId, transaction);
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
      return q.update(questionColumns(merged), { transaction });
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
    await ctx.services.db.sequelize.transaction(async (transaction) => {
      const intake = await findIntake(ctx, input.screenerId, { transaction, lock: true });
      await (await findQuestion(ctx, intake.id, input.questionId, transaction)).destroy({ transaction });
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
    const { models, db } = ctx.services;
    const rows = await db.sequelize.transaction(async (transaction) => {
      const intake = await findIntake(ctx, input.screenerId, { transaction, lock: true });
      const existing = await questionsOf(models, intake.id, transaction);
      const ids = existing.map((q) => q.id).sort();
      if (new Set(input.question_ids).size !== input.question_ids.length || JSON.stringify([...input.question_ids].sort()) !== JSON.stringify(ids)) {
        throw new ValidationError('question_ids: must list every question of the intake exactly once');
      }
      for (const [i, id] of input.question_ids.entries()) {
        await models.IntakeQuestion.update({ sort_order: i }, { where: { id }, transaction });
      }
      return questionsOf(models, intake.id, transaction);
    });
    return { questions: rows.map(questionRecord) };
  },
});
