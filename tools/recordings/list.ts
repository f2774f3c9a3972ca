import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { RecordingInvitation, invitationRecord, placeOf, type InvitationRow } from './record.ts';
import { selectRows } from '../../core/sql.ts';

export const listInvitations = capability({
  name: 'recordings.list_invitations',
  title: 'List recording invitations',
  description:
    'Lists the project\'s recording invitations, newest first, with their status (invited, started, uploading, completed, expired, revoked) ' +
    'and, once complete, the recorded interview. Deleted invitations are left out.',
  input: z.strictObject({}),
  output: z.object({ invitations: z.array(RecordingInvitation) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/recording-invitations' },
  async handler(ctx) {
    const { project } = projectOf(ctx);
    const rows = await selectRows<InvitationRow>(ctx.services, `SELECT * FROM recording_invitations WHERE project_id = $1 AND status <> 'deleted' ORDER BY created_at DESC, id DESC`, [project.id]);
    const place = placeOf(ctx);
    return { invitations: rows.map((r) => invitationRecord(ctx.services, r, place)) };
  },
});
