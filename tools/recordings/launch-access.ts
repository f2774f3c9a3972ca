import { z } from 'zod';
import type { Services } from '../../core/context.ts';
import { DomainError, NotFoundError } from '../../core/errors.ts';
import { effectiveStatus, type InvitationRow, type Status } from './record.ts';
import type { Sql } from '../../core/tx.ts';

export const LaunchToken = z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/, 'must be the token from the launch link').describe('The token in the launch link');

/** The invitation a launch link names; the token is the only credential the guest has. */
export async function invitationByToken(services: Services, token: string, sql: Sql = services.db.pool, lock = false): Promise<InvitationRow> {
  const { rows: [row] } = await sql.query<InvitationRow>(`SELECT * FROM recording_invitations WHERE launch_token = $1${lock ? ' FOR UPDATE' : ''}`, [token]);
  if (!row) throw new NotFoundError('This recording link does not exist', { code: 'invitation_not_found' });
  return row;
}

/** Why a launch link no longer records, in the guest's words; null while it still does. */
export const CLOSED: Partial<Record<Status, { code: string; message: string }>> = {
  expired: { code: 'invitation_expired', message: 'This recording link has expired.' },
  revoked: { code: 'invitation_revoked', message: 'This recording link was withdrawn by the person who sent it.' },
  deleted: { code: 'invitation_deleted', message: 'This recording link no longer exists.' },
};

export function refuseClosed(row: InvitationRow): Status {
  const status = effectiveStatus(row);
  const closed = CLOSED[status];
  if (closed) throw new DomainError(closed.message, { code: closed.code, action: 'Ask the person who sent you the link for a new one' });
  return status;
}
