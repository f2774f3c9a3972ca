import type { Sql } from '../../core/tx.ts';
import type { NewSignal } from './extract.ts';
import { continuedCards, type OldCard } from './carry-over.ts';

const COLUMNS = [
  'id', 'project_id', 'interview_id', 'signal_type', 'target_surface', 'confidence', 'intensity', 'quote', 'timestamp_ms', 'segment_id',
  'page_url', 'page_title', 'preceding_actions', 'user_goal', 'outcome', 'transcript_uncertain', 'transcript_uncertainty_note', 'headline',
  'claim', 'reconstruction', 'observed_facts_json', 'evidence_grade', 'window_start_ms', 'window_end_ms', 'source', 'manual',
] as const satisfies ReadonlyArray<keyof NewSignal>;
// Every field of a new card is written: adding one to NewSignal without listing it here fails to compile.
const complete: [Exclude<keyof NewSignal, (typeof COLUMNS)[number]>] extends [never] ? true : never = true;
void complete;

const list = COLUMNS.join(', ');
/** What extraction rewrites on a card it continues; the researcher's columns (review, note, dismissal) stay. */
const REWRITTEN = COLUMNS.filter((c) => c !== 'id' && c !== 'project_id' && c !== 'interview_id' && c !== 'manual');
// Data-modifying CTEs: the old cards go (but for those kept, $4), the continued ones are rewritten ($5) and the new ones come in, in one statement.
const SQL = `WITH gone AS (DELETE FROM signals WHERE interview_id = $1 AND (NOT manual OR $2::boolean) AND NOT (id = ANY($4::text[]))),
  continued AS (UPDATE signals s SET (${REWRITTEN.join(', ')}, updated_at) = (${REWRITTEN.map((c) => `r.${c}`).join(', ')}, now())
                FROM jsonb_populate_recordset(NULL::signals, $5::jsonb) r WHERE s.id = r.id AND s.interview_id = $1)
  INSERT INTO signals (${list}, created_at, updated_at) SELECT ${list}, now(), now() FROM jsonb_populate_recordset(NULL::signals, $3::jsonb)`;

/** An interview's extracted cards, and whether a researcher has done something with each; worked ones first. */
const EXTRACTED = `SELECT s.id, s.quote, s.signal_type,
    (s.review_status IS NOT NULL OR s.annotation_text IS NOT NULL OR s.dismissed_at IS NOT NULL
     OR EXISTS (SELECT 1 FROM finding_evidence f WHERE f.signal_id = s.id) OR EXISTS (SELECT 1 FROM signal_task_links l WHERE l.signal_id = s.id)
     OR EXISTS (SELECT 1 FROM recurrence_candidates c WHERE c.signal_id = s.id AND c.status <> 'candidate')) AS worked
  FROM signals s WHERE s.interview_id = $1 AND NOT s.manual
  ORDER BY worked DESC, s.created_at, s.id
  FOR UPDATE OF s`;

/**
 * Replaces an interview's pipeline evidence with an extraction's cards (manual cards too when
 * `replaceManual`), in the caller's transaction. The cards travel as one JSON array, so no
 * model instance is built per card (Signal.bulkCreate cost about a millisecond of CPU per interview).
 * A new card telling the same moment as an old one continues it (its id, and any review, note,
 * dismissal, findings and task link); a card a researcher worked on that nothing continues stays as it was.
 */
export async function replaceSignals(sql: Sql, interviewId: string, rows: NewSignal[], replaceManual: boolean): Promise<void> {
  const { rows: old } = await sql.query<OldCard & { worked: boolean }>(EXTRACTED, [interviewId]);
  // Any card telling the same moment again keeps its id, so links to it hold; a worked one is matched first.
  const continued = continuedCards(old, rows);
  // The caller's cards name their ids as stored (recurrence detection reads them next).
  for (const [i, id] of continued) rows[i] = { ...rows[i], id };
  const fresh = rows.filter((_, i) => !continued.has(i));
  const rewritten = rows.filter((_, i) => continued.has(i));
  const kept = [...new Set([...old.filter((o) => o.worked).map((o) => o.id), ...continued.values()])];
  await sql.query(SQL, [interviewId, replaceManual, JSON.stringify(fresh), kept, JSON.stringify(rewritten)]);
}
