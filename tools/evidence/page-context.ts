import type { Services } from '../../core/context.ts';
import { PAGE_VIEW } from '../sdk/page-view.ts';
import type { NewSignal } from './extract.ts';

/**
 * Gives evidence the page the participant was on at its moment: the last page view at or
 * before the evidence's timestamp, else the first one (the page the interview started on).
 */
export async function withPageContext(services: Services, interviewId: string, rows: NewSignal[]): Promise<NewSignal[]> {
  const { rows: views } = await services.db.pool.query<{ timestamp_ms: number; url: string; title: string | null }>(
    `SELECT timestamp_ms, data->>'url' AS url, data->>'title' AS title FROM interview_events
      WHERE interview_id = $1 AND event_type = $2 AND data->>'url' IS NOT NULL ORDER BY timestamp_ms, id`,
    [interviewId, PAGE_VIEW],
  );
  if (!views.length) return rows;
  return rows.map((row) => {
    const view = (row.timestamp_ms === null ? undefined : views.filter((v) => v.timestamp_ms <= row.timestamp_ms!).pop()) ?? views[0];
    return { ...row, page_url: row.page_url ?? view.url, page_title: row.page_title ?? view.title };
  });
}
