import { z } from 'zod';
import { randomBytes } from 'node:crypto';
import { capability } from '../../core/registry.ts';
import { principalOf, projectOf, type Services } from '../../core/context.ts';
import { newId } from '../../core/ids.ts';
import { creates } from '../common.ts';
import { findStudy } from '../studies/record.ts';
import { Plan, RecordingInvitation, invitationRecord, placeOf, type InvitationRow, type PlanValue } from './record.ts';
import type { Sql } from '../../core/tx.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export const ExternalRef = z.string().min(1).max(200).describe('Your own reference for this invitation, e.g. a ticket or customer id');
export const ExpiresInDays = z.number().int().min(1).max(30).default(7).describe('Days the launch link works; default 7');

export const newToken = () => randomBytes(32).toString('base64url');

export async function insertInvitation(
  services: Services,
  values: { projectId: string; studyId: string | null; guest: boolean; externalRef: string | null; plan: PlanValue; expiresInDays: number; createdBy: string },
  sql: Sql = services.db.pool,
): Promise<InvitationRow> {
  const { rows: [row] } = await sql.query<InvitationRow>(
    `INSERT INTO recording_invitations (id, project_id, study_id, guest, external_ref, plan, launch_token, status, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, 'invited', $8, $9) RETURNING *`,
    [newId('rin'), values.projectId, values.studyId, values.guest, values.externalRef, JSON.stringify(values.plan), newToken(), new Date(Date.now() + values.expiresInDays * DAY_MS), values.createdBy],
  );
  return row;
}

export const createInvitation = capability({
  name: 'recordings.create_invitation',
  title: 'Invite someone to record their screen',
  description:
    'Creates a recording invitation: a link (launchUrl) a participant opens to record their screen and voice while following the plan\'s steps on a website. ' +
    'Send them launchUrl with the text in instructions. The finished recording becomes an interview of this project (processed like any other); ' +
    'poll it with recordings.get_results. The link works for expiresInDays (1-30, default 7) or until revoked.',
  input: z.strictObject({
    plan: Plan,
    studyRef: z.string().min(1).max(100).optional().describe('Study (ref or handle) the recorded interview belongs to'),
    externalRef: ExternalRef.optional(),
    expiresInDays: ExpiresInDays,
  }),
  output: RecordingInvitation,
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/recording-invitations' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const study = input.studyRef ? await findStudy(ctx, input.studyRef) : null;
    const row = await insertInvitation(ctx.services, {
      projectId: project.id,
      studyId: study?.id ?? null,
      guest: false,
      externalRef: input.externalRef ?? null,
      plan: input.plan,
      expiresInDays: input.expiresInDays,
      createdBy: principalOf(ctx).userId,
    });
    return invitationRecord(ctx.services, row, placeOf(ctx));
  },
});
