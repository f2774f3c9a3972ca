import type { Services } from '../../core/context.ts';
import type { InvitationRow, PlanValue } from './record.ts';
import { selectRows } from '../../core/sql.ts';
import { artifacts } from '../interviews/rows.ts';

/** Long enough to watch a long recording (the player keeps fetching ranges with the same URL). */
export const VIEW_URL_TTL_SECONDS = 4 * 60 * 60;

export type Viewing = { kind: 'missing' } | { kind: 'pending'; plan: PlanValue } | { kind: 'ready'; plan: PlanValue; url: string; mimeType: string };

/** What a viewing link shows: nothing unless sharing is on, and the recording once it is complete. */
export async function recordingForView(services: Services, viewToken: string): Promise<Viewing> {
  const [row] = await selectRows<InvitationRow>(services, `SELECT * FROM recording_invitations WHERE view_token = $1 AND status <> 'deleted'`, [viewToken]);
  if (!row) return { kind: 'missing' };
  const video = row.status === 'completed' && row.interview_id
    ? (await artifacts.select(services.db.pool, `interview_id = $1 AND name = 'source-video'`, [row.interview_id]))[0]
    : undefined;
  if (!video || !(await services.storage.head(video.storage_key))) return { kind: 'pending', plan: row.plan };
  return { kind: 'ready', plan: row.plan, url: await services.storage.signedUrl(video.storage_key, VIEW_URL_TTL_SECONDS), mimeType: video.mime_type };
}
