import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { DomainError, NotFoundError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, readOnly } from '../common.ts';
import { IntakeAnswer, evaluate } from '../intakes/questions-logic.ts';
import { ScreenerIdParam, findIntake, isFull, questionsOf, recount, storedQuestion } from '../intakes/record.ts';
import { intakeResponses, intakes, type IntakeQuestionRow, type IntakeRow } from '../intakes/rows.ts';
import { inTransaction } from '../../core/tx.ts';

/** What a participant may see of an intake: never its qualification rules or counts. */
const PublicIntake = z.object({
  ref: z.string(),
  handle: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  welcome_message: z.string().nullable(),
  brand_color: z.string(),
  consent_text: z.string(),
  logo_storage_key: z.string().nullable(),
});
const PublicQuestion = z.object({
  id: z.string(),
  question_text: z.string(),
  question_type: z.string(),
  required: z.number(),
  sort_order: z.number(),
  options: z.array(z.string()).nullable(),
  min_value: z.number().nullable(),
  max_value: z.number().nullable(),
});

const publicIntake = (i: IntakeRow): z.input<typeof PublicIntake> => ({
  ref: i.id,
  handle: i.handle,
  title: i.title,
  description: i.description,
  welcome_message: i.welcome_message,
  brand_color: i.brand_color,
  consent_text: i.consent_text,
  logo_storage_key: i.logo_storage_key,
});
const publicQuestion = (q: IntakeQuestionRow): z.input<typeof PublicQuestion> => ({
  id: q.id,
  question_text: q.question_text,
  question_type: q.question_type,
  required: q.required ? 1 : 0,
  sort_order: q.sort_order,
  options: q.options_json ? JSON.parse(q.options_json) : null,
  min_value: q.min_value,
  max_value: q.max_value,
});

export const sdkListIntakes = capability({
  name: 'sdk.list_intakes',
  title: 'Active intakes (widget)',
  description: 'The widget\'s view of the project\'s active intakes that still take participants.',
  input: z.strictObject({}),
  output: z.object({ intakes: z.array(PublicIntake) }),
  annotations: readOnly,
  scope: 'read',
  access: 'sdk',
  mcp: false,
  rateLimit: 30,
  rest: { method: 'GET', path: '/api/sdk/screeners' },
  async handler(ctx) {
    const { project } = projectOf(ctx);
    const rows = await intakes.select(ctx.services.db.pool, `project_id = $1 AND status = 'active'`, [project.id], 'ORDER BY created_at ASC');
    return { intakes: rows.filter((i) => !isFull(i)).map(publicIntake) };
  },
});

export const sdkGetIntake = capability({
  name: 'sdk.get_intake',
  title: 'One intake (widget)',
  description: 'An active intake with its questions as a participant sees them: no qualification rules.',
  input: z.strictObject({ screenerId: ScreenerIdParam }),
  output: z.object({ intake: PublicIntake, questions: z.array(PublicQuestion) }),
  annotations: readOnly,
  scope: 'read',
  access: 'sdk',
  mcp: false,
  rateLimit: 60,
  rest: { method: 'GET', path: '/api/sdk/screener/:screenerId' },
  async handler(ctx, input) {
    const intake = await findIntake(ctx, input.screenerId);
    if (intake.status !== 'active') throw new NotFoundError('Intake not found or not active');
    const questions = await questionsOf(intake.id, ctx.services.db.pool);
    return { intake: publicIntake(intake), questions: questions.map(publicQuestion) };
  },
});

export const sdkRespondIntake = capability({
  name: 'sdk.respond_intake',
  title: 'Answer an intake (widget)',
  description:
    'Records a participant\'s answers and consent, evaluates the qualification rules and answers whether they qualify. Refused when the ' +
    'intake is not active or already has max_participants qualified respondents.',
  input: z.strictObject({
    screenerId: ScreenerIdParam,
    answers: z.record(z.string().max(64), IntakeAnswer).refine((a) => Object.keys(a).length <= 50, 'at most 50 answers'),
    consent_given: z.boolean(),
    consent_recording: z.boolean().default(false),
    participant_name: z.string().trim().max(200).optional(),
    participant_email: z.email().max(320).optional(),
    utm_source: z.string().max(200).optional(),
    utm_medium: z.string().max(200).optional(),
    utm_campaign: z.string().max(200).optional(),
  }),
  output: z.object({
    response_id: z.string(),
    qualified: z.boolean(),
    message: z.string().describe('What to show the participant: the thank-you or the disqualified message'),
  }),
  annotations: creates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rateLimit: 10,
  rest: { method: 'POST', path: '/api/sdk/screener/:screenerId/respond', status: 201 },
  async handler(ctx, input) {
    if (!input.consent_given) {
      throw new DomainError('The participant has not given consent', { code: 'consent_required', action: 'Ask for consent before submitting the answers' });
    }
    return inTransaction(ctx.services.db.pool, async (sql) => {
      // The row lock serialises respondents, so the cap and the counts hold under concurrency.
      const intake = await findIntake(ctx, input.screenerId, sql, true);
      if (intake.status !== 'active') throw new DomainError('This intake is not taking responses', { code: 'intake_inactive' });
      if (isFull(intake)) throw new DomainError('This intake has all the participants it needs', { code: 'intake_full' });
      const questions = (await questionsOf(intake.id, sql)).map(storedQuestion);
      const result = evaluate(questions, input.answers);
      if (result.errors.length) throw new ValidationError(result.errors.join('; '));
      const qualified = result.failures.length === 0;
      const response = await intakeResponses.insert(sql, {
        id: newId('itr'),
        intake_id: intake.id,
        participant_name: input.participant_name ?? null,
        participant_email: input.participant_email ?? null,
        qualified,
        qualification_reason: result.failures[0] ?? 'Meets every qualification rule',
        answers_json: JSON.stringify(result.normalised),
        utm_source: input.utm_source ?? null,
        utm_medium: input.utm_medium ?? null,
        utm_campaign: input.utm_campaign ?? null,
        consent_given: true,
        consent_recording: input.consent_recording,
      });
      await recount(intake.id, sql);
      return { response_id: response.id, qualified, message: qualified ? intake.thank_you_message : intake.disqualified_message };
    });
  },
});
