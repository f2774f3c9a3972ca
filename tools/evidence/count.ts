import type { Sql } from '../../core/tx.ts';

/** An interview's evidence_count: its cards that are not dismissed, counted again after any change to them. */
export const COUNTED = `(SELECT count(*) FROM signals WHERE interview_id = interviews.id AND dismissed_at IS NULL)`;

export async function recount(sql: Sql, interviewIds: string[]): Promise<void> {
  await sql.query(`UPDATE interviews SET evidence_count = ${COUNTED} WHERE id = ANY($1)`, [interviewIds]);
}
