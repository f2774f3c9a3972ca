import { z } from 'zod';
import type { Ctx, Services } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { isoRequired } from '../common.ts';
import type { Sql } from '../../core/tx.ts';

/** Only http(s): plan URLs become links on the launch page, so `javascript:` and the like never get there. */
const WebUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(4000);

export const Plan = z
  .strictObject({
    version: z.literal(1),
    title: z.string().min(1).max(160),
    targetUrl: WebUrl.describe('The website the guest records'),
    steps: z
      .array(z.strictObject({ instruction: z.string().min(1).max(2000), url: WebUrl.optional().describe('Page to open for this step') }))
      .min(1)
      .max(30),
  })
  .meta({ id: 'RecordingPlan' });
export type PlanValue = z.output<typeof Plan>;

export const STATUSES = ['invited', 'started', 'uploading', 'completed', 'expired', 'revoked', 'deleted'] as const;
export type Status = (typeof STATUSES)[number];

/** Used as a response root, so it carries no component id (a root `$ref` is not an object schema). */
export const RecordingInvitation = z.object({
  id: z.string(),
  projectRef: z.string(),
  externalRef: z.string().nullable(),
  plan: Plan,
  launchUrl: z.string().describe('Page the guest opens to record; anyone holding it can record until it expires or is revoked'),
  instructions: z.string().describe('Text to send the guest with the link'),
  expiresAt: z.string(),
  revoked: z.boolean(),
  status: z.enum(STATUSES),
  interviewRef: z.string().nullable().describe('The recorded interview, once the recording is complete'),
  interviewUrl: z.string().nullable(),
  viewUrl: z.string().nullable().describe('Playback page, only while the viewing link is enabled'),
});
export type InvitationRecord = z.input<typeof RecordingInvitation>;

export const InvitationIdParam = z.string().min(1).max(64).describe('Recording invitation id');

export interface InvitationRow {
  id: string;
  project_id: string;
  study_id: string | null;
  guest: boolean;
  external_ref: string | null;
  plan: PlanValue;
  launch_token: string;
  status: Status;
  expires_at: Date;
  revoked_at: Date | null;
  interview_id: string | null;
  view_token: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Where an invitation's project lives, for its refs and URLs. */
export interface Place {
  orgHandle: string;
  projectHandle: string;
}

/** Expiry is read, never written: an invitation nobody started (or finished starting) is expired once its time has passed. */
export function effectiveStatus(row: Pick<InvitationRow, 'status' | 'expires_at'>, now = Date.now()): Status {
  if ((row.status === 'invited' || row.status === 'started') && new Date(row.expires_at).getTime() <= now) return 'expired';
  return row.status;
}

export const launchUrl = (services: Services, token: string) => `${services.baseUrl()}/r/${token}`;
export const viewUrl = (services: Services, token: string) => `${services.baseUrl()}/r/view/${token}`;

function instructions(plan: PlanValue, url: string, expiresAt: Date): string {
  return [
    `You are invited to record "${plan.title}".`,
    `Open ${url} in a desktop browser (Chrome, Edge or Firefox) and press Start.`,
    'Share the browser tab or screen you are asked about and allow the microphone, then follow the steps and say out loud what you are thinking.',
    'The recording uploads while you go; press Finish when you are done.',
    `The link works until ${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
  ].join(' ');
}

export function invitationRecord(services: Services, row: InvitationRow, place: Place): InvitationRecord {
  const status = effectiveStatus(row);
  const done = status === 'completed' && row.interview_id;
  const url = launchUrl(services, row.launch_token);
  return {
    id: row.id,
    projectRef: `${place.orgHandle}/${place.projectHandle}`,
    externalRef: row.external_ref,
    plan: row.plan,
    launchUrl: url,
    instructions: instructions(row.plan, url, new Date(row.expires_at)),
    expiresAt: isoRequired(row.expires_at),
    revoked: row.revoked_at !== null,
    status,
    interviewRef: done ? row.interview_id : null,
    interviewUrl: done ? `${services.baseUrl()}/api/orgs/${place.orgHandle}/projects/${place.projectHandle}/sessions/${row.interview_id}` : null,
    viewUrl: row.view_token ? viewUrl(services, row.view_token) : null,
  };
}

export function placeOf(ctx: Ctx): Place {
  const { org, project } = projectOf(ctx);
  return { orgHandle: org.handle, projectHandle: project.handle };
}

/** An invitation of the caller's project; another project's invitation is not found. */
export async function findInvitation(ctx: Ctx, id: string, sql: Sql = ctx.services.db.pool, lock = false): Promise<InvitationRow> {
  const { project } = projectOf(ctx);
  const { rows: [row] } = await sql.query<InvitationRow>(`SELECT * FROM recording_invitations WHERE id = $1 AND project_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, project.id]);
  if (!row) throw new NotFoundError('Recording invitation not found', { code: 'invitation_not_found' });
  return row;
}
