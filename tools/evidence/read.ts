import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { readOnly, sqlWhere } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { Signal, signalRecord, type SignalRecord } from './record.ts';
import { SIGNAL_TYPES, TARGET_SURFACES } from './types.ts';
import { caseFileOf, provenanceOf } from './case-file.ts';
import { linksOf } from './links.ts';
import type { SignalRow } from '../../models/index.ts';

/** Every column but the search vector, which callers never see. */
export const SIGNAL_COLUMNS = `id, project_id, interview_id, signal_type, target_surface, confidence, intensity, quote, timestamp_ms, segment_id, page_url,
  page_title, preceding_actions, user_goal, outcome, transcript_uncertain, transcript_uncertainty_note, headline, claim, reconstruction,
  observed_facts_json, evidence_grade, window_start_ms, window_end_ms, annotation_text, annotation_by, annotation_at, dismissed_at,
  dismissed_reason, dismissed_by, review_status, review_note, reviewed_by, reviewed_at, source, manual, created_by, created_at, updated_at`;

/** Raw `signals` rows (from a pool query) as SPEC 2.6 records. */
export function signalRecordsOf(ctx: Ctx, rows: Array<Record<string, unknown>>): SignalRecord[] {
  const ref = projectRefOf(ctx);
  return rows.map((r) => signalRecord(ctx.services.models.Signal.build(r as never, { raw: true, isNewRecord: false }), ref));
}

export const SignalIdParam = z.string().min(1).max(64).describe('Evidence card id (sig_...)');

export async function findSignal(ctx: Ctx, id: string): Promise<SignalRow> {
  const { project } = projectOf(ctx);
  const row = await ctx.services.models.Signal.findOne({ where: { id, project_id: project.id } });
  if (!row) throw new NotFoundError('Evidence card not found');
  return row;
}


/** The full read of one card: record, links, provenance and case file. */
export async function fullSignal(ctx: Ctx, row: SignalRow) {
  const record = signalRecord(row, projectRefOf(ctx));
  const [links, provenance] = await Promise.all([linksOf(ctx, row), provenanceOf(ctx.services, row)]);
  return { ...record, ...links, provenance, case_file: caseFileOf(row, record, provenance, links) };
}

export const listSignals = capability({
  name: 'evidence.list',
  title: 'List evidence cards',
  description:
    'Lists a project\'s evidence cards (quotes from interviews, typed as struggles, workarounds, desired outcomes...), newest first. ' +
    'Filters: type, target_surface, session_id, task_id (or "none" for cards not linked to a work item), search (full text over quote, ' +
    'headline and claim), min_confidence, dismissed (default false). Pages with limit (default 20) and offset; returns { signals, total }.',
  input: z.strictObject({
    type: z.enum(SIGNAL_TYPES).optional(),
    target_surface: z.enum(TARGET_SURFACES).optional(),
    session_id: z.string().max(64).optional(),
    task_id: z.string().max(64).optional().describe('A work item id, or "none" for unlinked cards'),
    search: z.string().trim().min(1).max(200).optional(),
    min_confidence: z.number().min(0).max(1).optional(),
    dismissed: z.boolean().default(false),
    limit: z.number().int().min(1).max(200).default(20),
    offset: z.number().int().min(0).default(0),
  }),
  output: z.object({ signals: z.array(Signal), total: z.number().int() }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/signals' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const where = sqlWhere('project_id = $1', project.id);
    where.raw(input.dismissed ? 'dismissed_at IS NOT NULL' : 'dismissed_at IS NULL');
    if (input.type) where.add('signal_type = ?', input.type);
    if (input.target_surface) where.add('target_surface = ?', input.target_surface);
    if (input.session_id) where.add('interview_id = ?', input.session_id);
    if (input.task_id === 'none') where.raw('NOT EXISTS (SELECT 1 FROM signal_task_links l WHERE l.signal_id = signals.id)');
    else if (input.task_id) where.add('EXISTS (SELECT 1 FROM signal_task_links l WHERE l.signal_id = signals.id AND l.task_id = ?)', input.task_id);
    if (input.min_confidence !== undefined) where.add('confidence >= ?', input.min_confidence);
    if (input.search) where.add(`search @@ websearch_to_tsquery('english', ?)`, input.search);
    const { clause, bind } = where;
    const pool = ctx.services.db.pool;
    const [count, page] = await Promise.all([
      pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM signals WHERE ${clause}`, bind),
      pool.query(`SELECT ${SIGNAL_COLUMNS} FROM signals WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT ${input.limit} OFFSET ${input.offset}`, bind),
    ]);
    return { signals: signalRecordsOf(ctx, page.rows), total: count.rows[0].n };
  },
});

export const getSignal = capability({
  name: 'evidence.get',
  title: 'Read an evidence card',
  description:
    'One evidence card with everything needed to judge it: provenance (study, interview, page, moment), its work item and resolution, ' +
    'recurrence candidates, and the full case file (SPEC 2.6.2). ' +
    'Use it before citing, reviewing or linking a card, to judge it on its source rather than its headline.',
  input: z.strictObject({ signalId: SignalIdParam }),
  output: z.object({ signal: Signal }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/signals/:signalId' },
  async handler(ctx, input) {
    return { signal: await fullSignal(ctx, await findSignal(ctx, input.signalId)) };
  },
});
