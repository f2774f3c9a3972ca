import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { deletes } from '../common.ts';
import { InvitationIdParam, RecordingInvitation, findInvitation, invitationRecord, placeOf, type InvitationRow } from './record.ts';

export const deleteInvitation = capability({
  name: 'recordings.delete_invitation',
  title: 'Delete a recording invitation',
  description:
    'Deletes a recording invitation: its launch and viewing links stop working and it leaves the list. A recorded interview stays in the project ' +
    '(delete it with interviews.delete). Deleting again changes nothing.',
  input: z.strictObject({ invitationId: InvitationIdParam }),
  output: RecordingInvitation,
  annotations: deletes,
  scope: 'write',
  access: 'project',
  mcp: false,
  rest: { method: 'DELETE', path: 'P/recording-invitations/:invitationId' },
  async handler(ctx, input) {
    const current = await findInvitation(ctx, input.invitationId);
    const { rows: [row] } = await ctx.services.db.pool.query<InvitationRow>(
      `UPDATE recording_invitations SET status = 'deleted', view_token = NULL, updated_at = now() WHERE id = $1 RETURNING *`,
      [current.id],
    );
    return invitationRecord(ctx.services, row, placeOf(ctx));
  },
});
