import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { NotFoundError } from '../../core/errors.ts';
import { readOnly } from '../common.ts';
import { Invitation } from '../studies/schemas.ts';
import { StudyIdParam, findStudy } from '../studies/record.ts';
import { invitationState } from '../studies/placement.ts';
import { VoiceOption, projectVoice, studyVoice } from '../conductor/voice-paths.ts';

export const sdkGetStudy = capability({
  name: 'sdk.get_study',
  title: 'Active study (widget)',
  description: 'An active study as the widget runs it: parsed goals, script and settings, its invitation and intake, and whether voice is offered.',
  input: z.strictObject({ studyId: StudyIdParam }),
  output: z.object({
    study: z.object({
      ref: z.string(),
      handle: z.string(),
      title: z.string(),
      description: z.string().nullable(),
      status: z.string(),
      goals: z.array(z.object({ id: z.string(), description: z.string() })),
      script: z.object({ version: z.number(), goals: z.array(z.unknown()).optional(), segments: z.array(z.record(z.string(), z.unknown())) }),
      settings: z.record(z.string(), z.unknown()),
      invitation: Invitation.nullable(),
      intake_ref: z.string().nullable(),
      allowed_selectors: z.array(z.string()),
      voice: VoiceOption,
    }),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'sdk',
  mcp: false,
  rest: { method: 'GET', path: '/api/sdk/study/:studyId' },
  async handler(ctx, input) {
    const study = await findStudy(ctx, input.studyId);
    if (study.status !== 'active') throw new NotFoundError('Study not found or not active', { code: 'study_not_active' });
    return {
      study: {
        ref: study.id,
        handle: study.handle,
        title: study.title,
        description: study.description,
        status: study.status,
        goals: JSON.parse(study.goals_json ?? '[]'),
        script: JSON.parse(study.script_json ?? '{"version":2,"segments":[]}'),
        settings: JSON.parse(study.settings_json ?? '{}'),
        invitation: invitationState(study) === 'valid' ? (study.invitation_json as z.input<typeof Invitation>) : null,
        intake_ref: study.intake_id,
        allowed_selectors: study.allowed_selectors,
        voice: studyVoice(await projectVoice(ctx.services, study.project_id), study),
      },
    };
  },
});
