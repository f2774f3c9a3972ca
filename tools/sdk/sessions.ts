import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { DomainError, NotFoundError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates } from '../common.ts';
import { findStudy, projectRefOf } from '../studies/record.ts';
import { responseInProject } from '../intakes/record.ts';
import { intakeResponses } from '../intakes/rows.ts';
import { Session, sessionRecord } from '../interviews/record.ts';
import { guardOrigin } from './origin-guard.ts';
import { interviews } from '../interviews/rows.ts';

export const sdkCreateSession = capability({
  name: 'sdk.create_session',
  title: 'Start an interview (widget)',
  description:
    'Creates an interview from the widget. study_id binds it to an active study; a study with an intake needs the qualified ' +
    'screener_response_id of this participant.',
  input: z.strictObject({
    study_id: z.string().min(1).max(64).optional().describe('Active study ref or handle'),
    screener_response_id: z.string().min(1).max(64).optional(),
    participant_name: z.string().trim().max(200).optional(),
    participant_email: z.email().max(320).optional(),
    interview_mode: z.enum(['voice', 'text', 'screen']).default('voice'),
  }),
  output: z.object({ session: Session }),
  annotations: creates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rateLimit: 20,
  rest: { method: 'POST', path: '/api/sdk/sessions', status: 201 },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const study = input.study_id ? await findStudy(ctx, input.study_id) : null;
    if (study && study.status !== 'active') {
      throw new DomainError('This study is not taking interviews', { code: 'study_not_active', action: 'Activate the study first' });
    }
    await guardOrigin(ctx, study, null);
    await ctx.services.billing.checkInterviewAllowed(project);
    let response = null;
    if (input.screener_response_id) {
      response = await responseInProject(project.id, input.screener_response_id, null, ctx.services.db.pool);
      if (!response) throw new NotFoundError('screener_response_id: no such response in this project');
      if (!response.qualified) throw new DomainError('This participant did not qualify', { code: 'participant_not_qualified' });
      if (study?.intake_id && study.intake_id !== response.intake_id) throw new DomainError('The response is for another intake than the study\'s', { code: 'intake_mismatch' });
    } else if (study?.intake_id) {
      throw new DomainError('This study screens participants first', { code: 'intake_required', action: 'Submit the study\'s intake and pass screener_response_id' });
    }
    const row = await interviews.insert(ctx.services.db.pool, {
      id: newId('int'),
      project_id: project.id,
      study_id: study?.id ?? null,
      intake_id: response?.intake_id ?? null,
      intake_response_id: response?.id ?? null,
      source: 'widget',
      status: 'created',
      processing_status: 'not_started',
      interview_mode: input.interview_mode,
      participant_name: input.participant_name ?? response?.participant_name ?? null,
      participant_email: input.participant_email ?? response?.participant_email ?? null,
    });
    if (response) await intakeResponses.update(ctx.services.db.pool, response.id, { session_id: row.id });
    return { session: sessionRecord(row, projectRefOf(ctx)) };
  },
});
