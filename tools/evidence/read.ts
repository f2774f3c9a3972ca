import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { NotFoundError, ValidationError } from '../../core/errors.ts';
import { readOnly } from '../common.ts';
import { decodeCursor, encodeCursor, evidenceVersion, readPage, totalOf } from './list-query.ts';
import { projectRefOf } from '../studies/record.ts';
import { Signal, signalRecord, type SignalFields, type SignalRecord } from './record.ts';
import { SIGNAL_TYPES, TARGET_SURFACES } from './types.ts';
import { caseFileOf, provenanceOf } from './case-file.ts';
import { linksOf } from './links.ts';
import { signalsById, type SignalRow } from './rows.ts';
import type { Sql } from '../../core/tx.ts';

/** Raw `signals` rows (from a pool query) as SPEC 2.6 records: plain rows, no model instances. */
export function signalRecordsOf(ctx: Ctx, rows: readonly object[]): SignalRecord[] {
  const ref = projectRefOf(ctx);
  return rows.map((r) => signalRecord(r as unknown as SignalFields, ref));
}

export const SignalIdParam = z.string().min(1).max(64).describe('Evidence card id (sig_...)');

/** A card of the caller's project; `lock` takes it FOR UPDATE in the caller's transaction. Another project's card is not found. */
export async function findSignal(ctx: Ctx, id: string, sql: Sql = ctx.services.db.pool, lock = false): Promise<SignalRow> {
  const [row] = await signalsById(sql, projectOf(ctx).project.id, [id], lock);
  if (!row) throw new NotFoundError(`Evidence card ${id} not found in this project`, { action: 'evidence.list gives the ids of its cards' });
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
    'headline, claim, page title and observed facts, which hold the text on screen at that moment of a screen recording), min_confidence, dismissed (default false). Pages with limit (default 20) and either offset or cursor: pass ' +
    'next_cursor back as cursor for the next page, which stays right while new cards arrive. Returns { signals, total, next_cursor }.',
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
    cursor: z.string().min(1).max(300).optional().describe('next_cursor from the previous page (not with offset)'),
  }),
  output: z.object({
    signals: z.array(Signal),
    total: z.number().int(),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/signals' },
  // A page reads only the project's cards and their links, which evidence_versions counts.
  version: (ctx) => evidenceVersion(ctx.services.db.pool, projectOf(ctx).project.id),
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const { limit, offset, cursor, ...filter } = input;
    if (cursor && offset) throw new ValidationError('cursor and offset: send one or the other', { code: 'cursor_with_offset' });
    const after = cursor ? decodeCursor(cursor) : null;
    const pool = ctx.services.db.pool;
    const page = await readPage(pool, project.id, filter, { limit, offset, after });
    const total = await totalOf(pool, project.id, filter, page.version);
    const last = page.rows.length === limit ? page.rows[page.rows.length - 1] : null;
    return {
      signals: signalRecordsOf(ctx, page.rows),
      total,
      next_cursor: last ? encodeCursor({ at: last.created_at, id: last.id }) : null,
    };
  },
});

export const getSignal = capability({
  name: 'evidence.get',
  title: 'Read an evidence card',
  description:
    'One evidence card with everything needed to judge it: provenance (study, interview, page, moment), its work item and resolution, ' +
    'recurrence candidates, and the full case file. ' +
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
