import { z } from 'zod';
import type { Transaction } from 'sequelize';
import { capability } from '../../core/registry.ts';
import type { Services } from '../../core/context.ts';
import { DomainError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { updates } from '../common.ts';
import { recordEvent } from '../sdk/session-access.ts';
import { selectRows } from '../../core/sql.ts';
import { LaunchToken, invitationByToken, refuseClosed } from './launch-access.ts';
import { sqlOf } from '../../core/tx.ts';
import { interviews } from '../interviews/rows.ts';

/** The consent the launch page shows next to its Start button. */
export const CONSENT_VERSION = 'recording-invitation-1';

/**
 * A page starts one recording, so a second start means the guest reloaded: parts of the
 * interrupted recording would join into a broken file with the new one, so they go.
 */
async function discardUnfinishedParts(services: Services, interviewId: string, transaction: Transaction): Promise<void> {
  const sql = sqlOf(transaction);
  const { rows: parts } = await sql.query<{ storage_key: string }>(`DELETE FROM media_chunks WHERE interview_id = $1 AND type = 'screen' RETURNING storage_key`, [interviewId]);
  if (!parts.length) return;
  await sql.query(`UPDATE screen_upload_sessions SET parts = '{}', updated_at = now() WHERE interview_id = $1 AND status = 'open'`, [interviewId]);
  transaction.afterCommit(async () => {
    await Promise.all(parts.map((p) => services.storage.delete(p.storage_key).catch(() => {})));
  });
}

export const startRecording = capability({
  name: 'recordings.start_recording',
  title: 'Start a guest recording (launch page)',
  description:
    'Called by the recording launch page when the guest presses Start: creates the screen interview (the guest consents to recording by starting) ' +
    'and returns its session_id and the project key for the SDK screen upload routes. Starting again returns the same interview ' +
    'and drops the parts of an unfinished earlier recording, which the new one replaces.',
  input: z.strictObject({ launchToken: LaunchToken }),
  output: z.object({ session_id: z.string(), project_key: z.string() }),
  annotations: updates,
  scope: 'write',
  access: 'public',
  mcp: false,
  rateLimit: 20,
  rest: { method: 'POST', path: '/api/recordings/:launchToken/start' },
  async handler(ctx, input) {
    const { models, db } = ctx.services;
    return db.sequelize.transaction(async (transaction) => {
      const row = await invitationByToken(ctx.services, input.launchToken, { transaction, lock: true });
      if (refuseClosed(row) === 'completed') throw new DomainError('This recording is already finished', { code: 'invitation_completed' });
      const project = await models.Project.findByPk(row.project_id, { transaction });
      if (!project) throw new DomainError('This recording link no longer exists', { code: 'invitation_deleted' });
      // The recordings area is still on Sequelize: interview rows join its transaction through its connection.
      const sql = sqlOf(transaction);
      const [existing] = row.interview_id ? await interviews.select(sql, 'id = $1', [row.interview_id]) : [];
      if (existing) {
        await discardUnfinishedParts(ctx.services, existing.id, transaction);
        return { session_id: existing.id, project_key: project.public_key };
      }
      await ctx.services.billing.checkInterviewAllowed(project);
      const now = new Date();
      const interview = await interviews.insert(sql,
        {
          id: newId('int'),
          project_id: project.id,
          study_id: row.study_id,
          source: 'recording',
          status: 'in_progress',
          processing_status: 'not_started',
          interview_mode: 'screen',
          consent_recording: true,
          consent_data_use: true,
          consent_version: CONSENT_VERSION,
          started_at: now,
        },
      );
      await recordEvent(
        ctx.services,
        interview.id,
        {
          type: 'consent',
          timestampMs: 0,
          line: `consent given (recording yes, copy ${CONSENT_VERSION}): the guest started recording from invitation ${row.id}`,
          data: { consent_recording: true, consent_data_use: true, consent_version: CONSENT_VERSION, invitation_id: row.id },
        },
        sql,
      );
      await selectRows(ctx.services, `UPDATE recording_invitations SET status = 'started', interview_id = $2, updated_at = now() WHERE id = $1 RETURNING id`, [row.id, interview.id], transaction);
      return { session_id: interview.id, project_key: project.public_key };
    });
  },
});
