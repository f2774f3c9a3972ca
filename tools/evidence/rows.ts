import type { Sql } from '../../core/tx.ts';
import { table } from '../../core/table.ts';
import type { SignalAttrs } from '../../models/index.ts';

/** A `signals` row as `pg` reads it: a plain object, no model instance. */
export type SignalRow = SignalAttrs;

export const signals = table<SignalRow>()('signals', [
  'id', 'project_id', 'interview_id', 'signal_type', 'target_surface', 'confidence', 'intensity', 'quote', 'timestamp_ms', 'segment_id',
  'page_url', 'page_title', 'preceding_actions', 'user_goal', 'outcome', 'transcript_uncertain', 'transcript_uncertainty_note', 'headline',
  'claim', 'reconstruction', 'observed_facts_json', 'evidence_grade', 'window_start_ms', 'window_end_ms', 'annotation_text', 'annotation_by',
  'annotation_at', 'dismissed_at', 'dismissed_reason', 'dismissed_by', 'review_status', 'review_note', 'reviewed_by', 'reviewed_at',
  'source', 'manual', 'created_by', 'created_at', 'updated_at',
]);

/** The project's cards with these ids (in no order); `lock` takes them FOR UPDATE in the caller's transaction. */
export function signalsById(sql: Sql, projectId: string, ids: readonly string[], lock = false): Promise<SignalRow[]> {
  return signals.select(sql, 'id = ANY($1) AND project_id = $2', [ids, projectId], lock ? 'FOR UPDATE' : '');
}

/** Every card of the project, oldest first (exports). */
export function projectSignals(sql: Sql, projectId: string): Promise<SignalRow[]> {
  return signals.select(sql, 'project_id = $1', [projectId], 'ORDER BY created_at, id');
}
