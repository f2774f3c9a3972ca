import type { Sql } from '../../core/tx.ts';

/** Trigram similarity from which new evidence counts as resembling resolved evidence. */
export const RECURRENCE_THRESHOLD = 0.3;

/**
 * For each given card, finds evidence already linked to a done work item whose quote
 * resembles it (pg_trgm similarity) and records a recurrence candidate with the similarity
 * as confidence. Cards already linked to that item are not candidates for it.
 */
export async function detectRecurrence(sql: Sql, projectId: string, signalIds: string[] | 'all'): Promise<number> {
  const { rowCount } = await sql.query(
    `INSERT INTO recurrence_candidates (id, project_id, signal_id, related_task_id, related_resolved_signal_id, confidence, reason)
     SELECT 'rec_' || substr(md5(n.id || best.task_id), 1, 20), $1, n.id, best.task_id, best.id, round(best.sim::numeric, 3),
            format('Resembles "%s" (similarity %s), evidence of done work item "%s"', left(best.quote, 120), round(best.sim::numeric, 2), best.title)
       FROM signals n
       CROSS JOIN LATERAL (
         SELECT r.id, r.quote, t.id AS task_id, t.title, similarity(n.quote, r.quote) AS sim
           FROM signal_task_links l
           JOIN tasks t ON t.id = l.task_id AND t.status = 'done' AND t.project_id = $1
           JOIN signals r ON r.id = l.signal_id
          WHERE r.id <> n.id AND r.quote % n.quote AND similarity(n.quote, r.quote) >= $3
          ORDER BY sim DESC LIMIT 3
       ) best
      WHERE n.project_id = $1 AND ($2::text[] IS NULL OR n.id = ANY($2))
        AND NOT EXISTS (SELECT 1 FROM signal_task_links own WHERE own.signal_id = n.id AND own.task_id = best.task_id)
     ON CONFLICT (signal_id, related_task_id) DO NOTHING`,
    [projectId, signalIds === 'all' ? null : signalIds, RECURRENCE_THRESHOLD],
  );
  return rowCount ?? 0;
}
