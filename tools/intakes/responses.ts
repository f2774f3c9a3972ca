import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { NotFoundError, ValidationError } from '../../core/errors.ts';
import { readOnly, updates } from '../common.ts';
import { IntakeAnswer, evaluate } from './questions-logic.ts';
import { Response, ScreenerIdParam, findIntake, questionsOf, recount, responseRecord, storedQuestion } from './record.ts';
import { intakeResponses, type IntakeResponseRow } from './rows.ts';
import { inTransaction } from '../../core/tx.ts';

const ResponseIdParam = z.string().min(1).max(64);
const path = (suffix: string) => ({ path: `P/screeners/:screenerId/responses${suffix}`, aliases: [`P/intakes/:screenerId/responses${suffix}`] });

export const getResponse = capability({
  name: 'intakes.get_response',
  title: 'Read an intake response',
  description:
    'Returns one response to an intake: answers, qualification and why, consent, and the interview it led to. ' +
    'Use it to look at one applicant in detail, for instance before overriding their qualification with intakes.update_response.',
  input: z.strictObject({ screenerId: ScreenerIdParam, responseId: ResponseIdParam }),
  output: z.object({ response: Response }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', ...path('/:responseId') },
  async handler(ctx, input) {
    const intake = await findIntake(ctx, input.screenerId);
    const [response] = await intakeResponses.select(ctx.services.db.pool, 'id = $1 AND intake_id = $2', [input.responseId, intake.id]);
    if (!response) throw new NotFoundError('Response not found');
    return { response: responseRecord(response) };
  },
});

export const updateResponse = capability({
  name: 'intakes.update_response',
  title: 'Qualify, disqualify or amend a response',
  description:
    'A researcher\'s override: set qualified true or false with a reason, or amend answers (re-evaluated against the rules unless ' +
    'qualified is also sent). Intake counts follow.',
  input: z.strictObject({
    screenerId: ScreenerIdParam,
    responseId: ResponseIdParam,
    qualified: z.boolean().optional(),
    qualification_reason: z.string().trim().min(1).max(500).optional(),
    answers: z.record(z.string(), IntakeAnswer).optional().describe('Answers by question id; they replace the stored ones'),
    participant_name: z.string().trim().max(200).nullable().optional(),
    participant_email: z.email().max(320).nullable().optional(),
  }),
  output: z.object({ response: Response }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'PATCH', ...path('/:responseId') },
  async handler(ctx, { screenerId, responseId, ...changes }) {
    if (!Object.keys(changes).length) throw new ValidationError('Nothing to update: send qualified, answers or participant fields');
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const intake = await findIntake(ctx, screenerId, sql, true);
      const [response] = await intakeResponses.select(sql, 'id = $1 AND intake_id = $2', [responseId, intake.id]);
      if (!response) throw new NotFoundError('Response not found');
      const patch: Partial<IntakeResponseRow> = {};
      if (changes.answers) {
        const questions = (await questionsOf(intake.id, sql)).map(storedQuestion);
        const result = evaluate(questions, changes.answers);
        if (result.errors.length) throw new ValidationError(result.errors.join('; '));
        patch.answers_json = JSON.stringify(result.normalised);
        patch.qualified = result.failures.length === 0;
        patch.qualification_reason = result.failures[0] ?? 'Meets every qualification rule';
      }
      if (changes.qualified !== undefined) {
        patch.qualified = changes.qualified;
        patch.qualification_reason = changes.qualification_reason ?? (changes.qualified ? 'Qualified by a researcher' : 'Disqualified by a researcher');
      } else if (changes.qualification_reason) {
        patch.qualification_reason = changes.qualification_reason;
      }
      if (changes.participant_name !== undefined) patch.participant_name = changes.participant_name;
      if (changes.participant_email !== undefined) patch.participant_email = changes.participant_email;
      const saved = (await intakeResponses.update(sql, response.id, patch))!;
      await recount(intake.id, sql);
      return saved;
    });
    return { response: responseRecord(row) };
  },
});
