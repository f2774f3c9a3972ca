import type { Transaction } from 'sequelize';
import type { Services } from '../../core/context.ts';
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
const SQL = `INSERT INTO signals (${list}, created_at, updated_at) SELECT ${list}, now(), now() FROM jsonb_populate_recordset(NULL::signals, $1::jsonb)`;

/**
 * Stores an extraction's cards in one statement, in the caller's transaction: the rows travel
 * as one JSON array, so no model instance is built per card (Signal.bulkCreate cost about a
 * millisecond of CPU per interview).
 */
export async function storeSignals(services: Services, rows: NewSignal[], transaction: Transaction): Promise<void> {
  if (!rows.length) return;
  await services.db.sequelize.query(SQL, { bind: [JSON.stringify(rows)], transaction });
}
