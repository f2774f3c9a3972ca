import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { DomainError } from '../../core/errors.ts';
import { InvitationIdParam, RecordingInvitation, effectiveStatus, findInvitation, invitationRecord, placeOf, type InvitationRow } from './record.ts';
import { newToken } from './create.ts';
import { inTransaction } from '../../core/tx.ts';

const Action = z.enum(['revoke', 'share', 'unshare']);

/** The column changes an action makes, or null when there is nothing to change. */
function change(row: InvitationRow, action: z.output<typeof Action>): string | null {
  const status = effectiveStatus(row);
  if (status === 'deleted') throw new DomainError('This recording invitation was deleted', { code: 'invitation_deleted' });
  if (action === 'share') return row.view_token ? null : 'view_token = $2';
  if (action === 'unshare') return row.view_token ? 'view_token = NULL' : null;
  if (status === 'revoked') return null;
  if (status === 'completed') {
    throw new DomainError('The recording is already complete, so there is no link left to revoke', { code: 'invitation_completed', action: 'Use action unshare to turn the viewing link off' });
  }
  return `status = 'revoked', revoked_at = now()`;
}

export const updateInvitation = capability({
  name: 'recordings.update_invitation',
  title: 'Revoke or share a recording invitation',
  description:
    'Changes a recording invitation. revoke: the launch link stops working at once (a recording in progress can no longer finish); cannot be undone. ' +
    'share: turns on the viewing link (viewUrl), a page anyone holding it can use to watch or embed the finished recording. ' +
    'unshare: turns the viewing link off; sharing again makes a new link. Repeating an action changes nothing.',
  input: z.strictObject({ invitationId: InvitationIdParam, action: Action }),
  output: RecordingInvitation,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  scope: 'write',
  access: 'project',
  rest: { method: 'PATCH', path: 'P/recording-invitations/:invitationId' },
  async handler(ctx, input) {
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      const current = await findInvitation(ctx, input.invitationId, sql, true);
      const set = change(current, input.action);
      if (!set) return current;
      const bind = set.includes('$2') ? [current.id, newToken()] : [current.id];
      const { rows: [updated] } = await sql.query<InvitationRow>(`UPDATE recording_invitations SET ${set}, updated_at = now() WHERE id = $1 RETURNING *`, bind);
      // A revoked recording in progress ends here: the guest's upload routes refuse an ended interview.
      if (input.action === 'revoke' && current.interview_id) {
        await sql.query(
          `UPDATE interviews SET status = 'abandoned', ended_at = coalesce(ended_at, now()), updated_at = now() WHERE id = $1 AND status NOT IN ('completed', 'abandoned')`,
          [current.interview_id],
        );
      }
      return updated;
    });
    return invitationRecord(ctx.services, row, placeOf(ctx));
  },
});
