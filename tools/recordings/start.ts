import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { DomainError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { updates } from '../common.ts';
import { recordEvent } from '../sdk/session-access.ts';
import { LaunchToken, invitationByToken, refuseClosed } from './launch-access.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import type { ProjectAttrs } from '../../models/index.ts';
import { interviews } from '../interviews/rows.ts';

/** The consent the launch page shows next to its Start button. */
export const CONSENT_VERSION = 'recording-invitation-1';

/**
 * A page starts one recording, so a second start means the guest reloaded: parts of the
 * interrupted recording would join into a broken file with the new one, so they go.
 */
async function discardUnfinishedParts(sql: Sql, interviewId: string): Promise<string[]> {
  const { rows: parts } = await sql.query<{ storage_key: string }>(`DELETE FROM media_chunks WHERE interview_id = $1 AND type = 'screen' RETURNING storage_key`, [interviewId]);
  if (parts.length) await sql.query(`UPDATE screen_upload_sessions SET parts = '{}', updated_at = now() WHERE interview_id = $1 AND status = 'open'`, [interviewId]);
  return parts.map((p) => p.storage_key);
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
    let discarded: string[] = [];
    const started = await inTransaction(ctx.services.db.pool, async (sql) => {
      const row = await invitationByToken(ctx.services, input.launchToken, sql, true);
      if (refuseClosed(row) === 'completed') throw new DomainError('This recording is already finished', { code: 'invitation_completed' });
      const { rows: [project] } = await sql.query<ProjectAttrs>('SELECT * FROM projects WHERE id = $1', [row.project_id]);
      if (!project) throw new DomainError('This recording link no longer exists', { code: 'invitation_deleted' });
      const [existing] = row.interview_id ? await interviews.select(sql, 'id = $1', [row.interview_id]) : [];
      if (existing) {
        discarded = await discardUnfinishedParts(sql, existing.id);
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
      await sql.query(`UPDATE recording_invitations SET status = 'started', interview_id = $2, updated_at = now() WHERE id = $1`, [row.id, interview.id]);
      return { session_id: interview.id, project_key: project.public_key };
    });
    // The dropped parts' objects go once the transaction that dropped them has committed.
    await Promise.all(discarded.map((key) => ctx.services.storage.delete(key).catch(() => {})));
    return started;
  },
});
