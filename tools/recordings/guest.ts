import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { orgOf, principalOf } from '../../core/context.ts';
import { creates } from '../common.ts';
import { Plan, RecordingInvitation, invitationRecord, type PlanValue } from './record.ts';
import { ExpiresInDays, ExternalRef, insertInvitation } from './create.ts';
import { guestProject } from './guest-project.ts';
import { inTransaction } from '../../core/tx.ts';

export const GUEST_INSTRUCTION = 'Show us what you do on this site, and say out loud what you are looking for and what you expect to happen.';

export function guestPlan(targetUrl: string): PlanValue {
  const title = `Recording of ${new URL(targetUrl).host}`.slice(0, 160);
  return { version: 1, title, targetUrl, steps: [{ instruction: GUEST_INSTRUCTION, url: targetUrl }] };
}

export const createWebsiteInvitation = capability({
  name: 'recordings.create_website_invitation',
  title: 'Invite a guest to record a website',
  description:
    'Creates a guest recording invitation for any website: a link (launchUrl) and text (instructions) to send someone so they record their screen and ' +
    'voice while using targetUrl. Recordings land in the organization\'s "Guest recordings" project (made on first use). ' +
    'Poll results with recordings.get_results using that project\'s projectRef.',
  input: z.strictObject({
    targetUrl: Plan.shape.targetUrl,
    externalRef: ExternalRef.optional(),
    expiresInDays: ExpiresInDays,
  }),
  output: RecordingInvitation,
  annotations: creates,
  scope: 'write',
  access: 'org',
  rest: { method: 'POST', path: '/api/organizations/:orgHandle/recording-invitations' },
  async handler(ctx, input) {
    const org = orgOf(ctx);
    const userId = principalOf(ctx).userId;
    return inTransaction(ctx.services.db.pool, async (sql) => {
      const project = await guestProject(org, sql);
      const row = await insertInvitation(
        ctx.services,
        { projectId: project.id, studyId: null, guest: true, externalRef: input.externalRef ?? null, plan: guestPlan(input.targetUrl), expiresInDays: input.expiresInDays, createdBy: userId },
        sql,
      );
      return invitationRecord(ctx.services, row, { orgHandle: org.handle, projectHandle: project.handle });
    });
  },
});
