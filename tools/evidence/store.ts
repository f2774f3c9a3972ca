import type { Sql } from '../../core/tx.ts';
import type { NewSignal } from './extract.ts';

const COLUMNS = [
  'id', 'project_id', 'interview_id', 'signal_type', 'target_surface', 'confidence', 'intensity', 'quote', 'timestamp_ms', 'segment_id',
  'page_url', 'page_title', 'preceding_actions', 'user_goal', 'outcome', 'transcript_uncertain', 'transcript_uncertainty_note', 'headline',
  'claim', 'reconstruction', 'observed_facts_json', 'evidence_grade', 'window_start_ms', 'window_end_ms', 'source', 'manual',
] as const satisfies ReadonlyArray<keyof NewSignal>;
// Every field of a new card is written: adding one to NewSignal without listing it here fails to compile.
const complete: [Exclude<keyof NewSignal, (typeof COLUMNS)[number]>] extends [never] ? true : never = true;
void complete;

const list = COLUMNS.join(', ');
// Data-modifying CTEs: the old cards go and the new ones come in one statement (one round trip).
const SQL = `WITH gone AS (DELETE FROM signals WHERE interview_id = $1 AND (NOT manual OR $2::boolean))
  INSERT INTO signals (${list}, created_at, updated_at) SELECT ${list}, now(), now() FROM jsonb_populate_recordset(NULL::signals, $3::jsonb)`;

/**
 * Replaces an interview's pipeline evidence with an extraction's cards (manual cards too when
 * `replaceManual`), in the caller's transaction. The cards travel as one JSON array, so no
 * model instance is built per card (Signal.bulkCreate cost about a millisecond of CPU per interview).
 */
export async function replaceSignals(sql: Sql, interviewId: string, rows: NewSignal[], replaceManual: boolean): Promise<void> {
  await sql.query(SQL, [interviewId, replaceManual, JSON.stringify(rows)]);
}
