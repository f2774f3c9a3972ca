import { z } from 'zod';
import type { Sql } from '../../core/tx.ts';
import { intakeQuestions } from './rows.ts';
import { ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { QuestionInput, questionProblems, type QuestionInputT } from './questions-logic.ts';

const hex = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a #RRGGBB hex colour');

export const intakeFields = {
  description: z.string().max(2000).nullable().optional(),
  welcome_message: z.string().max(2000).nullable().optional(),
  brand_color: hex.optional(),
  consent_text: z.string().trim().min(1).max(4000).optional(),
  thank_you_message: z.string().trim().min(1).max(2000).optional(),
  disqualified_message: z.string().trim().min(1).max(2000).optional(),
  max_participants: z.number().int().min(1).max(1_000_000).nullable().optional().describe('Stop taking responses once this many have qualified'),
  logo_storage_key: z.string().max(500).nullable().optional(),
};

export const IntakeStatus = z.enum(['active', 'paused', 'closed']);

export const QuestionList = z.array(QuestionInput).max(50);

/** Refuses a question whose parts do not fit together, naming where. */
export function checkQuestion(q: QuestionInputT, where: string): void {
  const problems = questionProblems(
    { question_type: q.question_type, options: q.options ?? null, min_value: q.min_value ?? null, max_value: q.max_value ?? null, rules: q.qualification_rules ?? null },
    where,
  );
  if (problems.length) throw new ValidationError(problems.join('; '));
}

export function questionColumns(q: QuestionInputT) {
  return {
    question_text: q.question_text,
    question_type: q.question_type,
    required: q.required,
    options_json: q.question_type === 'yes_no' ? JSON.stringify(['yes', 'no']) : q.options?.length ? JSON.stringify(q.options) : null,
    min_value: q.min_value ?? null,
    max_value: q.max_value ?? null,
    qualification_rules_json: q.qualification_rules ? JSON.stringify(q.qualification_rules) : null,
  };
}

export async function insertQuestions(intakeId: string, questions: QuestionInputT[], startAt: number, sql: Sql) {
  questions.forEach((q, i) => checkQuestion(q, `questions.${i}`));
  const rows = [];
  for (const [i, q] of questions.entries()) {
    rows.push(await intakeQuestions.insert(sql, { id: newId('itq'), intake_id: intakeId, sort_order: startAt + i, ...questionColumns(q) }));
  }
  return rows;
}
