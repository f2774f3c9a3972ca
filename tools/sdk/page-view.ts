import { z } from 'zod';
import type { Services } from '../../core/context.ts';
import type { Sql } from '../../core/tx.ts';
import type { InterviewRow } from '../../models/index.ts';
import { elapsedMs, recordEvent } from './session-access.ts';

/** The interview event that says which page the participant was on from then on. */
export const PAGE_VIEW = 'page_view';

export const PageUrl = z.url({ protocol: /^https?$/ }).max(2000);

/**
 * Records the page a widget interview runs on. Only the origin and path are kept: a query or
 * fragment can carry a participant's tokens or e-mail, and evidence is shared widely.
 */
export async function recordPageView(services: Services, interview: InterviewRow, pageUrl: string, title: string | null, sql: Sql): Promise<void> {
  const url = new URL(pageUrl);
  const page = `${url.origin}${url.pathname}`;
  await recordEvent(services, interview.id, { type: PAGE_VIEW, timestampMs: elapsedMs(interview), line: `page: ${page}`, data: { url: page, title } }, sql);
}
