import type { Sql } from '../../core/tx.ts';
import { DERIVED_SUMMARY, summaryOf } from './summary.ts';

/** An interview's evidence_count: its cards that are not dismissed, counted again after any change to them. */
export const COUNTED = `(SELECT count(*) FROM signals WHERE interview_id = interviews.id AND dismissed_at IS NULL)`;

/**
 * Counts an interview's cards again after a change to them, and writes again the summary the pipeline made
 * of them (a dismissed card leaves it, a corrected type or headline shows in it); a person's summary stays.
 */
export async function recount(sql: Sql, interviewIds: string[]): Promise<void> {
  await sql.query(`UPDATE interviews SET evidence_count = ${COUNTED} WHERE id = ANY($1)`, [interviewIds]);
  const { rows } = await sql.query<{ interview_id: string; signal_type: string; headline: string | null; confidence: number; intensity: number | null }>(
    `SELECT interview_id, signal_type, headline, confidence, intensity FROM signals WHERE interview_id = ANY($1) AND dismissed_at IS NULL`,
    [interviewIds],
  );
  const summaries = interviewIds.map((id) => summaryOf(rows.filter((r) => r.interview_id === id)));
  await sql.query(
    `UPDATE interviews i SET summary = s.summary FROM unnest($1::text[], $2::text[]) AS s(id, summary) WHERE i.id = s.id AND starts_with(i.summary, $3)`,
    [interviewIds, summaries, DERIVED_SUMMARY],
  );
}
