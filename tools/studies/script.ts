import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { JsonObject, JsonValue, readOnly } from '../common.ts';
import { ReviewResult, reviewScript } from './script-review.ts';
import { StudyIdParam, findStudy } from './record.ts';

export const validateScript = capability({
  name: 'studies.validate_script',
  title: 'Validate a study script',
  description:
    'Reviews a draft script without saving anything: errors (duplicate segment ids, unknown modes, a speak segment without speak_text, ' +
    'an empty script) and warnings (goals no segment serves, talk/observe segments without instructions, instructions that give the participant ' +
    'no question), each naming the segment and field. participant_questions shows, per talk and observe segment, what the built-in conductor ' +
    '(no model configured) will say to the participant. Use it while drafting; studies.create refuses scripts with errors.',
  input: z.strictObject({
    script: JsonObject.describe(
      'The script: { version: 2, goals: [{ id, description }], segments: [{ id, mode: speak | observe | talk, title, speak_text?, instruction?, conductor_context? }] }. ' +
        'Taken loosely, so that the review, not the parser, explains each mistake.',
    ),
    goals: z.array(JsonValue).optional().describe('Study goals, each { id, description }, to check coverage for when they are not inside the script'),
  }),
  output: ReviewResult,
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'POST', path: 'P/studies/validate-script' },
  async handler(_ctx, input) {
    return reviewScript(input.script, input.goals);
  },
});

export const reviewStudyScript = capability({
  name: 'studies.review_script',
  title: 'Review a study\'s script',
  description:
    'Runs the same review as studies.validate_script on a study\'s stored script and goals, or on a replacement script sent in the body ' +
    'before saving it. ' +
    'Use it to check a script change before studies.update saves it, or to audit a study\'s current script.',
  input: z.strictObject({
    studyId: StudyIdParam,
    script: JsonObject.optional().describe('A replacement script to review instead of the stored one, shaped as in studies.validate_script'),
  }),
  output: ReviewResult,
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'POST', path: 'P/studies/:studyId/review-script' },
  async handler(ctx, input) {
    const study = await findStudy(ctx, input.studyId);
    const script = input.script !== undefined ? input.script : JSON.parse(study.script_json ?? 'null');
    return reviewScript(script, study.goals_json ? JSON.parse(study.goals_json) : undefined);
  },
});
