import type { Sql } from '../../core/tx.ts';
import { newId } from '../../core/ids.ts';
import { SECONDS_PER_CREDIT } from './rules.ts';

/**
 * Charges a processed interview, once ever (key `usage:<interviewId>`): one credit per started
 * ten minutes of its duration (or of its transcript when the duration is unknown), at least one.
 */
export async function recordUsage(q: Sql, interviewId: string): Promise<void> {
  await q.query(
    `INSERT INTO billing_ledger (id, organization_id, kind, amount, interview_id, project_id, idempotency_key, description)
     SELECT $2, p.organization_id, 'usage', -c.credits, i.id, p.id, 'usage:' || i.id,
            'Interview processed: ' || c.credits || CASE WHEN c.credits = 1 THEN ' credit' ELSE ' credits' END
       FROM interviews i
       JOIN projects p ON p.id = i.project_id
      CROSS JOIN LATERAL (
        SELECT GREATEST(1, CEIL(COALESCE(i.duration_seconds,
                 (SELECT MAX(end_ms) FROM transcript_segments s WHERE s.interview_id = i.id) / 1000.0, 0) / $3))::int AS credits
      ) c
      WHERE i.id = $1
     ON CONFLICT (idempotency_key) DO NOTHING`,
    [interviewId, newId('bil'), SECONDS_PER_CREDIT],
  );
}

/** A processing run that failed for good: a zero-cost entry, so billing events show it. */
export async function recordFailure(q: Sql, interviewId: string, errorCode: string): Promise<void> {
  await q.query(
    `INSERT INTO billing_ledger (id, organization_id, kind, amount, interview_id, project_id, description)
     SELECT $2, p.organization_id, 'failure', 0, i.id, p.id, 'Interview processing failed (' || $3::text || '): no credits charged'
       FROM interviews i JOIN projects p ON p.id = i.project_id
      WHERE i.id = $1`,
    [interviewId, newId('bil'), errorCode],
  );
}
