import type { Sql } from '../../core/tx.ts';
import type { SignalAttrs } from '../../models/index.ts';

/** A `signals` row as `pg` reads it: a plain object, no model instance. */
export type SignalRow = SignalAttrs;

const COLUMNS = [
  'id', 'project_id', 'interview_id', 'signal_type', 'target_surface', 'confidence', 'intensity', 'quote', 'timestamp_ms', 'segment_id',
  'page_url', 'page_title', 'preceding_actions', 'user_goal', 'outcome', 'transcript_uncertain', 'transcript_uncertainty_note', 'headline',
  'claim', 'reconstruction', 'observed_facts_json', 'evidence_grade', 'window_start_ms', 'window_end_ms', 'annotation_text', 'annotation_by',
  'annotation_at', 'dismissed_at', 'dismissed_reason', 'dismissed_by', 'review_status', 'review_note', 'reviewed_by', 'reviewed_at',
  'source', 'manual', 'created_by', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof SignalAttrs>;
// Every field of SignalRow is read: adding one to SignalAttrs without listing it here fails to compile.
const complete: [Exclude<keyof SignalAttrs, (typeof COLUMNS)[number]>] extends [never] ? true : never = true;
void complete;

const KNOWN = new Set<string>(COLUMNS);
const LIST = COLUMNS.join(', ');

/** The project's cards with these ids (in no order); `lock` takes them FOR UPDATE in the caller's transaction. */
export async function signalsById(sql: Sql, projectId: string, ids: readonly string[], lock = false): Promise<SignalRow[]> {
  const { rows } = await sql.query<SignalRow>(`SELECT ${LIST} FROM signals WHERE id = ANY($1) AND project_id = $2${lock ? ' FOR UPDATE' : ''}`, [ids, projectId]);
  return rows;
}

/** Every card of the project, oldest first (exports). */
export async function projectSignals(sql: Sql, projectId: string): Promise<SignalRow[]> {
  const { rows } = await sql.query<SignalRow>(`SELECT ${LIST} FROM signals WHERE project_id = $1 ORDER BY created_at, id`, [projectId]);
  return rows;
}

type Writable = Partial<Omit<SignalAttrs, 'id' | 'created_at' | 'updated_at'>>;

/** Sets the given columns of one card (jsonb values as JSON text) and answers the card as saved. */
export async function updateSignalRow(sql: Sql, id: string, changes: Writable): Promise<SignalRow> {
  const names = Object.keys(changes).filter((k) => changes[k as keyof Writable] !== undefined);
  for (const n of names) if (!KNOWN.has(n)) throw new Error(`updateSignalRow: signals has no column ${n}`);
  const sets = names.map((n, i) => `${n} = $${i + 2}`);
  const { rows } = await sql.query<SignalRow>(
    `UPDATE signals SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING ${LIST}`,
    [id, ...names.map((n) => changes[n as keyof Writable])],
  );
  return rows[0];
}

/** Adds one card (jsonb values as JSON text); unset columns take their defaults. */
export async function insertSignalRow(sql: Sql, row: Writable & { id: string }): Promise<void> {
  const names = Object.keys(row).filter((k) => row[k as keyof typeof row] !== undefined);
  for (const n of names) if (!KNOWN.has(n)) throw new Error(`insertSignalRow: signals has no column ${n}`);
  await sql.query(`INSERT INTO signals (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`, names.map((n) => row[n as keyof typeof row]));
}
