import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly } from '../common.ts';
import { LeaderboardEntry, PROJECT_COUNTS, listingRecord, type ListingRow } from './record.ts';
import { selectRows } from '../../core/sql.ts';

const PUBLISHED = `SELECT l.*, ${PROJECT_COUNTS('l.project_id')} FROM public_listings l WHERE l.status = 'published'`;

export const leaderboard = capability({
  name: 'public.leaderboard',
  title: 'Read the public leaderboard',
  description:
    'Published project listings, ranked by evidence count, then interview count (both of the whole project, highest first), then ' +
    'earliest published. Pages with limit (1-100, default 50) and offset; total counts all published listings; totals sums ' +
    'projects, interviews and evidence over the listed projects, each project once. Public: no sign-in needed.',
  input: z.strictObject({
    limit: z.number().int().min(1).max(100).default(50),
    offset: z.number().int().min(0).default(0),
  }),
  output: z.object({
    listings: z.array(LeaderboardEntry),
    total: z.number().int().min(0),
    totals: z.object({ projects: z.number().int().min(0), interviews: z.number().int().min(0), evidence: z.number().int().min(0) }),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'public',
  mcp: false,
  rest: { method: 'GET', path: '/api/public/leaderboard' },
  async handler(ctx, { limit, offset }) {
    const [rows, [totals]] = await Promise.all([
      selectRows<ListingRow>(
        ctx.services,
        `${PUBLISHED} ORDER BY evidence_count DESC, interview_count DESC, published_at ASC, hostname ASC LIMIT $1 OFFSET $2`,
        [limit, offset],
      ),
      selectRows<{ total: number; projects: number; interviews: number; evidence: number }>(
        ctx.services,
        `WITH listed AS (${PUBLISHED})
         SELECT (SELECT count(*)::int FROM listed) AS total, count(*)::int AS projects,
                coalesce(sum(interview_count), 0)::int AS interviews, coalesce(sum(evidence_count), 0)::int AS evidence
           FROM (SELECT DISTINCT project_id, interview_count, evidence_count FROM listed) per_project`,
        [],
      ),
    ]);
    const listings = rows.map((row, i) => {
      const { status: _status, ...record } = listingRecord(ctx.services, row);
      return { ...record, rank: offset + i + 1 };
    });
    return { listings, total: totals.total, totals: { projects: totals.projects, interviews: totals.interviews, evidence: totals.evidence } };
  },
});
