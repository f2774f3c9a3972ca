import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { DomainError } from '../../core/errors.ts';
import { updates } from '../common.ts';
import { joinScreenUpload } from '../sdk/screen-upload.ts';
import { queueProcessing } from '../interviews/pipeline.ts';
import { LaunchToken, invitationByToken, refuseClosed } from './launch-access.ts';
import { inTransaction } from '../../core/tx.ts';
import { artifacts, interviews } from '../interviews/rows.ts';

const notStarted = () => new DomainError('Nothing has been recorded with this link yet', { code: 'recording_not_started', action: 'Start the recording and upload it first' });

export const completeRecording = capability({
  name: 'recordings.complete_recording',
  title: 'Finish a guest recording (launch page)',
  description:
    'Called by the recording launch page after the last part is uploaded: joins the parts into the interview\'s recording, ends the interview ' +
    'and queues it for processing. The invitation becomes completed. Completing again changes nothing.',
  input: z.strictObject({ launchToken: LaunchToken }),
  output: z.object({ status: z.literal('completed') }),
  annotations: updates,
  scope: 'write',
  access: 'public',
  mcp: false,
  rateLimit: 20,
  rest: { method: 'POST', path: '/api/recordings/:launchToken/complete' },
  async handler(ctx, input) {
    const { services } = ctx;
    // The parts are joined first, outside the transaction: a long recording takes a while.
    const before = await invitationByToken(services, input.launchToken);
    if (refuseClosed(before) === 'completed') return { status: 'completed' as const };
    if (!before.interview_id) throw notStarted();
    await joinScreenUpload(services, before.interview_id);
    return inTransaction(services.db.pool, async (sql) => {
      const row = await invitationByToken(services, input.launchToken, sql, true);
      if (refuseClosed(row) === 'completed') return { status: 'completed' as const };
      const [interview] = row.interview_id ? await interviews.select(sql, 'id = $1', [row.interview_id], 'FOR UPDATE') : [];
      // The recording may also have been finalized through the SDK route.
      if (!interview || !(await artifacts.select(sql, `interview_id = $1 AND name = 'source-video'`, [interview.id])).length) throw notStarted();
      const ended = new Date();
      const started = interview.started_at ?? interview.created_at;
      await interviews.save(sql, interview, { status: 'completed', ended_at: ended, duration_seconds: (ended.getTime() - new Date(started).getTime()) / 1000 });
      await queueProcessing(services, interview, sql);
      await sql.query(`UPDATE recording_invitations SET status = 'completed', updated_at = now() WHERE id = $1`, [row.id]);
      return { status: 'completed' as const };
    });
  },
});
