import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { DomainError } from '../../core/errors.ts';
import { updates } from '../common.ts';
import { LaunchToken, invitationByToken, refuseClosed } from './launch-access.ts';
import { inTransaction } from '../../core/tx.ts';

export const markUploading = capability({
  name: 'recordings.mark_uploading',
  title: 'Mark a guest recording as uploading (launch page)',
  description: 'Called by the recording launch page before it uploads the first part of the recording: the invitation moves from started to uploading.',
  input: z.strictObject({ launchToken: LaunchToken }),
  output: z.object({ status: z.literal('uploading') }),
  annotations: updates,
  scope: 'write',
  access: 'public',
  mcp: false,
  rateLimit: 20,
  rest: { method: 'POST', path: '/api/recordings/:launchToken/uploading' },
  async handler(ctx, input) {
    return inTransaction(ctx.services.db.pool, async (sql) => {
      const row = await invitationByToken(ctx.services, input.launchToken, sql, true);
      const status = refuseClosed(row);
      if (status === 'invited') throw new DomainError('The recording has not started yet', { code: 'recording_not_started', action: 'POST /api/recordings/:launchToken/start first' });
      if (status === 'completed') throw new DomainError('This recording is already finished', { code: 'invitation_completed' });
      if (status === 'started') await sql.query(`UPDATE recording_invitations SET status = 'uploading', updated_at = now() WHERE id = $1`, [row.id]);
      return { status: 'uploading' as const };
    });
  },
});
