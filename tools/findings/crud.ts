import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { DomainError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, deletes, readOnly, sqlWhere, Success, updates } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { Signal } from '../evidence/record.ts';
import { signalRecordsOf } from '../evidence/read.ts';
import { MAX_BULK, signalsInProject } from '../evidence/links.ts';
import { TARGET_SURFACES } from '../evidence/types.ts';
import { PriorityScore } from '../work/record.ts';
import { actorOf, logActivity } from '../activity.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import { DELIVERY_STATES, Finding, FindingRefParam, RESEARCH_STATES, checkResearchMove, findFinding, findingCounts, findingRecord, findings, type FindingRow } from './record.ts';

const EvidenceRefs = z.array(z.string().min(1).max(64)).max(MAX_BULK);

async function records(ctx: Ctx, rows: FindingRow[]) {
  const counts = await findingCounts(ctx, rows.map((r) => r.id));
  const ref = projectRefOf(ctx);
  return rows.map((r) => findingRecord(r, ref, counts.get(r.id)));
}

async function attach(ctx: Ctx, findingId: string, ids: string[], sql: Sql) {
  if (!ids.length) return;
  // A dismissed card is out of findings and counts: grouping one would make a finding of nothing.
  const dismissed = (await signalsInProject(ctx, ids, sql)).filter((s) => s.dismissed_at);
  if (dismissed.length) {
    throw new ValidationError(`evidence_refs: dismissed cards cannot go into a finding: ${dismissed.map((s) => s.id).slice(0, 20).join(', ')}`, {
      code: 'evidence_dismissed',
      action: 'Leave them out, or restore them first (evidence.undismiss)',
    });
  }
  await sql.query(`INSERT INTO finding_evidence (finding_id, signal_id, added_by) SELECT $1, unnest($2::text[]), $3 ON CONFLICT DO NOTHING`, [findingId, [...new Set(ids)], actorOf(ctx)]);
}

/** The surface most of the evidence is about, when the caller does not say. */
async function majoritySurface(ctx: Ctx, ids: string[]): Promise<string> {
  if (!ids.length) return 'product_under_test';
  const { rows } = await ctx.services.db.pool.query<{ target_surface: string }>(
    `SELECT target_surface FROM signals WHERE id = ANY($1) GROUP BY target_surface ORDER BY count(*) DESC, target_surface LIMIT 1`,
    [ids],
  );
  return rows[0]?.target_surface ?? 'product_under_test';
}

async function create(ctx: Ctx, input: { title: string; description?: string | null; target_surface?: string; priority_score?: number; effort_estimate?: string | null; evidence_refs: string[] }) {
  const { project } = projectOf(ctx);
  const id = newId('fnd');
  const surface = input.target_surface ?? (await majoritySurface(ctx, input.evidence_refs));
  const row = await inTransaction(ctx.services.db.pool, async (sql) => {
    const created = await findings.insert(sql, {
      id,
      project_id: project.id,
      title: input.title,
      description: input.description ?? null,
      target_surface: surface,
      research_state: 'draft',
      delivery_state: 'not_sent',
      priority_score: input.priority_score ?? 50,
      effort_estimate: input.effort_estimate ?? null,
      created_by: actorOf(ctx),
    });
    await attach(ctx, id, input.evidence_refs, sql);
    await logActivity(ctx, { type: 'finding', id }, 'created', { evidence: input.evidence_refs.length }, sql);
    return created;
  });
  return { finding: (await records(ctx, [row]))[0] };
}

const createFields = {
  title: z.string().trim().min(1).max(300),
  description: z.string().max(20_000).nullable().optional(),
  target_surface: z.enum(TARGET_SURFACES).optional(),
  priority_score: PriorityScore.optional(),
  effort_estimate: z.string().trim().min(1).max(20).nullable().optional(),
};

export const createFinding = capability({
  name: 'findings.create',
  title: 'Create a finding',
  description:
    'Creates a draft finding, optionally with evidence cards attached (evidence_refs). ' +
    'Use it to write a finding by hand; to group existing cards into a finding, findings.create_from_evidence is the usual path.',
  input: z.strictObject({ ...createFields, evidence_refs: EvidenceRefs.default([]) }),
  output: z.object({ finding: Finding }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/findings', status: 201 },
  handler: (ctx, input) => create(ctx, input),
});

export const createFindingFromEvidence = capability({
  name: 'findings.create_from_evidence',
  title: 'Create a finding from evidence',
  description:
    'Groups evidence cards into a new draft finding. It stays a draft (no external work is created) until reviewed with findings.update.',
  input: z.strictObject({ ...createFields, evidence_refs: EvidenceRefs.min(1) }),
  output: z.object({ finding: Finding }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/findings/from-evidence', status: 201 },
  handler: (ctx, input) => create(ctx, input),
});

export const listFindings = capability({
  name: 'findings.list',
  title: 'List findings',
  description: 'Lists findings, highest priority first, filtered by research_state, delivery_state, target_surface, min_priority and a text search over title and description. Pages with limit (default 20) and offset.',
  input: z.strictObject({
    research_state: z.enum(RESEARCH_STATES).optional(),
    delivery_state: z.enum(DELIVERY_STATES).optional(),
    target_surface: z.enum(TARGET_SURFACES).optional(),
    min_priority: z.number().min(0).max(100).optional(),
    search: z.string().trim().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(200).default(20),
    offset: z.number().int().min(0).default(0),
  }),
  output: z.object({ findings: z.array(Finding), total: z.number().int() }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/findings' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const where = sqlWhere('project_id = $1', project.id);
    if (input.research_state) where.add('research_state = ?', input.research_state);
    if (input.delivery_state) where.add('delivery_state = ?', input.delivery_state);
    if (input.target_surface) where.add('target_surface = ?', input.target_surface);
    if (input.min_priority !== undefined) where.add('priority_score >= ?', input.min_priority);
    if (input.search) where.add(`to_tsvector('english', title || ' ' || coalesce(description, '')) @@ websearch_to_tsquery('english', ?)`, input.search);
    const { clause, bind } = where;
    const pool = ctx.services.db.pool;
    const [count, rows] = await Promise.all([
      pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM findings WHERE ${clause}`, bind),
      findings.select(pool, clause, bind, `ORDER BY priority_score DESC, created_at DESC LIMIT ${input.limit} OFFSET ${input.offset}`),
    ]);
    return { findings: await records(ctx, rows), total: count.rows[0].n };
  },
});

async function evidenceOf(ctx: Ctx, findingId: string) {
  const { rows } = await ctx.services.db.pool.query(`SELECT s.* FROM signals s JOIN finding_evidence fe ON fe.signal_id = s.id WHERE fe.finding_id = $1 ORDER BY s.created_at`, [findingId]);
  return signalRecordsOf(ctx, rows);
}

export const getFinding = capability({
  name: 'findings.get',
  title: 'Read a finding',
  description:
    'A finding with its evidence cards. ' +
    'Use it to read a finding\'s claim together with the evidence behind it before reviewing, updating or sending it.',
  input: z.strictObject({ findingRef: FindingRefParam }),
  output: z.object({ finding: Finding, evidence: z.array(Signal) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/findings/:findingRef' },
  async handler(ctx, input) {
    const f = await findFinding(ctx, input.findingRef);
    return { finding: (await records(ctx, [f]))[0], evidence: await evidenceOf(ctx, f.id) };
  },
});

export const getFindingEvidence = capability({
  name: 'findings.get_evidence',
  title: 'Evidence of a finding',
  description:
    'Just the evidence cards behind a finding, to check its claim against what participants said. ' +
    'Use it instead of findings.get when only the cards matter, for example while reviewing a finding.',
  input: z.strictObject({ findingRef: FindingRefParam }),
  output: z.object({ finding_ref: z.string(), evidence: z.array(Signal) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/findings/:findingRef/evidence' },
  async handler(ctx, input) {
    const f = await findFinding(ctx, input.findingRef);
    return { finding_ref: f.id, evidence: await evidenceOf(ctx, f.id) };
  },
});

export const updateFinding = capability({
  name: 'findings.update',
  title: 'Update a finding',
  description:
    'Changes a finding: title, description, surface, effort, priority, evidence (add_evidence / remove_evidence), and research_state ' +
    '(draft → reviewed → closed). Mark reviewed only after checking the evidence; reviewing creates no external work — sending it is separate.',
  input: z.strictObject({
    findingRef: FindingRefParam,
    title: createFields.title.optional(),
    description: createFields.description,
    target_surface: createFields.target_surface,
    priority_score: createFields.priority_score,
    effort_estimate: createFields.effort_estimate,
    research_state: z.enum(RESEARCH_STATES).optional(),
    add_evidence: EvidenceRefs.optional(),
    remove_evidence: EvidenceRefs.optional(),
  }),
  output: z.object({ finding: Finding }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'PATCH', path: 'P/findings/:findingRef' },
  async handler(ctx, { findingRef, add_evidence, remove_evidence, research_state, ...fields }) {
    if (!Object.keys(fields).length && !add_evidence && !remove_evidence && !research_state) throw new ValidationError('Nothing to update: send at least one field');
    const f = await inTransaction(ctx.services.db.pool, async (sql) => {
      const row = await findFinding(ctx, findingRef, sql, true);
      const from = row.research_state;
      if (row.research_state === 'closed' && (Object.keys(fields).length || add_evidence || remove_evidence)) {
        throw new DomainError('A closed finding cannot change', { code: 'finding_closed' });
      }
      if (add_evidence) await attach(ctx, row.id, add_evidence, sql);
      if (remove_evidence) await sql.query(`DELETE FROM finding_evidence WHERE finding_id = $1 AND signal_id = ANY($2)`, [row.id, remove_evidence]);
      const patch: Partial<FindingRow> = { ...fields };
      if (research_state && research_state !== row.research_state) {
        checkResearchMove(row.research_state, research_state);
        if (research_state === 'reviewed') {
          const { rows: [n] } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM finding_evidence fe JOIN signals s ON s.id = fe.signal_id AND s.dismissed_at IS NULL WHERE fe.finding_id = $1`, [row.id]);
          if (!n.n) throw new DomainError('A finding needs evidence before it can be reviewed', { code: 'finding_without_evidence', action: 'Attach evidence with add_evidence first' });
          Object.assign(patch, { research_state, reviewed_at: new Date(), reviewed_by: actorOf(ctx) });
        } else Object.assign(patch, { research_state, closed_at: new Date(), closed_by: actorOf(ctx) });
      }
      const saved = await findings.update(sql, row.id, patch);
      await logActivity(ctx, { type: 'finding', id: row.id }, research_state && research_state !== from ? `state:${from}->${research_state}` : 'updated', { fields: Object.keys(fields), add: add_evidence?.length ?? 0, remove: remove_evidence?.length ?? 0 }, sql);
      return saved!;
    });
    return { finding: (await records(ctx, [f]))[0] };
  },
});

export const deleteFinding = capability({
  name: 'findings.delete',
  title: 'Delete a finding',
  description:
    'Deletes a finding; its evidence cards stay. ' +
    'Use it for a finding made by mistake or duplicating another; to retire a finding that was dealt with, set its research_state to closed with findings.update.',
  input: z.strictObject({ findingRef: FindingRefParam }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'project',
  rest: { method: 'DELETE', path: 'P/findings/:findingRef' },
  async handler(ctx, input) {
    await inTransaction(ctx.services.db.pool, async (sql) => {
      const f = await findFinding(ctx, input.findingRef, sql, true);
      await logActivity(ctx, { type: 'finding', id: f.id }, 'deleted', { title: f.title }, sql);
      await sql.query('DELETE FROM findings WHERE id = $1', [f.id]);
    });
    return { success: true };
  },
});
