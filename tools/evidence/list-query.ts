import { createHash } from 'node:crypto';
import pg from 'pg';
import { ValidationError } from '../../core/errors.ts';
import { sqlWhere } from '../common.ts';
import type { SignalAttrs } from '../../models/index.ts';
import type { SignalType, TargetSurface } from './types.ts';

/** The columns a SPEC 2.6 record is made of (signalRecord), and no more: the list reads only these. */
const RECORD_COLUMNS = `id, interview_id, signal_type, target_surface, confidence, intensity, quote, timestamp_ms, segment_id, page_url,
  page_title, preceding_actions, user_goal, outcome, transcript_uncertain, transcript_uncertainty_note, headline, claim, reconstruction,
  observed_facts_json, evidence_grade, window_start_ms, window_end_ms, annotation_text, annotation_by, annotation_at, dismissed_at,
  dismissed_reason, dismissed_by, review_status, review_note, source, created_at`;

/** Timestamps stay Postgres's text (UTC on our pool): isoRequired rewrites them without a Date, and the cursor keeps microseconds. */
const TEXT_TIMESTAMPS = { getTypeParser: (oid: number, format?: string) => (oid === 1184 ? (v: string) => v : pg.types.getTypeParser(oid, format as 'text')) };

export interface EvidenceFilter {
  type?: SignalType;
  target_surface?: TargetSurface;
  session_id?: string;
  task_id?: string;
  search?: string;
  min_confidence?: number;
  dismissed: boolean;
}

/** A position in the newest-first order: the last card of the previous page. */
export interface Position {
  at: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

export function encodeCursor(p: Position): string {
  return Buffer.from(JSON.stringify([p.at, p.id])).toString('base64url');
}

export function decodeCursor(cursor: string): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string' || !TIMESTAMP.test(parsed[0]) || !/^sig_[a-z0-9_]{1,60}$/.test(parsed[1])) {
    throw new ValidationError('cursor: not a cursor this list gave out (pass next_cursor back as it came)', { code: 'invalid_cursor' });
  }
  return { at: parsed[0], id: parsed[1] };
}

function whereOf(projectId: string, f: EvidenceFilter) {
  const where = sqlWhere('project_id = $1', projectId);
  where.raw(f.dismissed ? 'dismissed_at IS NOT NULL' : 'dismissed_at IS NULL');
  if (f.type) where.add('signal_type = ?', f.type);
  if (f.target_surface) where.add('target_surface = ?', f.target_surface);
  if (f.session_id) where.add('interview_id = ?', f.session_id);
  if (f.task_id === 'none') where.raw('NOT EXISTS (SELECT 1 FROM signal_task_links l WHERE l.signal_id = signals.id)');
  else if (f.task_id) where.add('EXISTS (SELECT 1 FROM signal_task_links l WHERE l.signal_id = signals.id AND l.task_id = ?)', f.task_id);
  if (f.min_confidence !== undefined) where.add('confidence >= ?', f.min_confidence);
  if (f.search) where.add(`search @@ websearch_to_tsquery('english', ?)`, f.search);
  return where;
}

/** A prepared statement per distinct SQL text: one per combination of filters, as values are always bound. */
const names = new Map<string, string>();
function prepared(text: string, values: unknown[]) {
  let name = names.get(text);
  if (!name) names.set(text, (name = `q${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`));
  return { name, text, values };
}

const VERSION = `coalesce((SELECT version FROM evidence_versions WHERE project_id = $1), 0) AS version`;

/** A card row as the list reads it: timestamps as Postgres's UTC text. */
export type SignalText = Omit<SignalAttrs, 'created_at' | 'annotation_at' | 'dismissed_at'> & { created_at: string; annotation_at: string | null; dismissed_at: string | null };

export interface EvidencePage {
  rows: SignalText[];
  /** The project's evidence version the page was read at. */
  version: number;
}

/** The page and, from the same snapshot, the project's evidence version: one statement. */
export function pageQuery(projectId: string, f: EvidenceFilter, page: { limit: number; offset: number; after: Position | null }) {
  const where = whereOf(projectId, f);
  if (page.after) {
    where.bind.push(page.after.at, page.after.id);
    where.raw(`(created_at, id) < ($${where.bind.length - 1}::timestamptz, $${where.bind.length})`);
  }
  where.bind.push(page.limit, page.offset);
  const text = `SELECT v.version, s.* FROM (SELECT ${VERSION}) v LEFT JOIN LATERAL (
      SELECT ${RECORD_COLUMNS} FROM signals WHERE ${where.clause}
       ORDER BY created_at DESC, id DESC LIMIT $${where.bind.length - 1} OFFSET $${where.bind.length}) s ON true`;
  return prepared(text, where.bind);
}

export async function readPage(pool: pg.Pool, projectId: string, f: EvidenceFilter, page: { limit: number; offset: number; after: Position | null }): Promise<EvidencePage> {
  const { rows } = await pool.query<SignalText & { version: number }>({ ...pageQuery(projectId, f, page), types: TEXT_TIMESTAMPS });
  return { version: rows[0].version, rows: rows[0].id === null ? [] : rows };
}

/** The project's evidence version now: it goes up at the commit of any change to its cards or their links. */
export async function evidenceVersion(pool: pg.Pool, projectId: string): Promise<number> {
  const { rows } = await pool.query<{ version: number }>({ name: 'evidence_version', text: `SELECT ${VERSION}`, values: [projectId] });
  return Number(rows[0].version);
}

/** Counts the filter's cards, with the version of the snapshot it counted. */
export function countQuery(projectId: string, f: EvidenceFilter) {
  const where = whereOf(projectId, f);
  return prepared(`SELECT count(*)::int AS total, ${VERSION} FROM signals WHERE ${where.clause}`, where.bind);
}

export async function countCards(pool: pg.Pool, projectId: string, f: EvidenceFilter): Promise<{ total: number; version: number }> {
  const { rows } = await pool.query<{ total: number; version: number }>(countQuery(projectId, f));
  return rows[0];
}

/**
 * Totals per project and filter, each with the evidence version it was counted at. A list
 * reuses one only when its page was read at the same version, so a total is never older than
 * the page beside it, whichever process wrote in between. Bounded: cleared when full.
 */
const totals = new Map<string, { version: number; total: number }>();
const MAX_TOTALS = 5_000;

export async function totalOf(pool: pg.Pool, projectId: string, f: EvidenceFilter, version: number): Promise<number> {
  const key = `${projectId} ${JSON.stringify([f.type, f.target_surface, f.session_id, f.task_id, f.search, f.min_confidence, f.dismissed])}`;
  const known = totals.get(key);
  if (known && known.version === version) return known.total;
  const counted = await countCards(pool, projectId, f);
  if (totals.size >= MAX_TOTALS) totals.clear();
  if (!known || counted.version >= known.version) totals.set(key, counted);
  return counted.total;
}
