import { z } from 'zod';
import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import type { FindingAttrs } from '../../models/index.ts';
import type { Sql } from '../../core/tx.ts';
import { table } from '../../core/table.ts';
import { DomainError, NotFoundError } from '../../core/errors.ts';
import { Timestamp, iso, isoRequired } from '../common.ts';
import { TARGET_SURFACES } from '../evidence/types.ts';
import { priorityLabel } from '../work/record.ts';

/** A `findings` row as `pg` reads it. */
export type FindingRow = FindingAttrs;

export const findings = table<FindingRow>()('findings', [
  'id', 'project_id', 'title', 'description', 'target_surface', 'research_state', 'delivery_state', 'provider_placement', 'priority_score',
  'effort_estimate', 'implementation_branch', 'implementation_pr_url', 'implementation_pr_number', 'deployed_at', 'reviewed_at', 'reviewed_by',
  'closed_at', 'closed_by', 'created_by', 'created_at', 'updated_at',
]);

export const RESEARCH_STATES = ['draft', 'reviewed', 'closed'] as const;
export const DELIVERY_STATES = ['not_sent', 'awaiting_product_triage', 'accepted', 'in_progress', 'completed', 'declined', 'duplicate'] as const;

/** SPEC 3: draft → reviewed → closed, forward only. */
const MOVES: Record<string, string[]> = { draft: ['reviewed'], reviewed: ['closed'], closed: [] };

export function checkResearchMove(from: string, to: string): void {
  if (from !== to && !MOVES[from]?.includes(to)) {
    throw new DomainError(`A ${from} finding cannot move to ${to}${MOVES[from]?.length ? `; next is ${MOVES[from].join(' or ')}` : ''}`, { code: 'finding_state_transition_invalid' });
  }
}

export const Finding = z
  .object({
    finding_ref: z.string(),
    project_ref: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    target_surface: z.enum(TARGET_SURFACES),
    research_state: z.enum(RESEARCH_STATES),
    delivery_state: z.enum(DELIVERY_STATES).nullable(),
    provider_placement: z.enum(['triage', 'backlog_fallback']).nullable(),
    priority_score: z.number(),
    priority_label: z.string(),
    effort_estimate: z.string().nullable(),
    evidence_count: z.number(),
    interview_count: z.number(),
    implementation_branch: z.string().nullable(),
    implementation_pr_url: z.string().nullable(),
    implementation_pr_number: z.number().nullable(),
    deployed_at: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Finding' });
export type FindingRecord = z.input<typeof Finding>;

/** Counts straight from the linked, undismissed evidence, so they always match it. */
export async function findingCounts(ctx: Ctx, ids: string[]): Promise<Map<string, { evidence: number; interviews: number }>> {
  if (!ids.length) return new Map();
  const { rows } = await ctx.services.db.pool.query<{ finding_id: string; evidence: number; interviews: number }>(
    `SELECT fe.finding_id, count(*)::int AS evidence, count(DISTINCT s.interview_id)::int AS interviews
       FROM finding_evidence fe JOIN signals s ON s.id = fe.signal_id AND s.dismissed_at IS NULL
      WHERE fe.finding_id = ANY($1) GROUP BY fe.finding_id`,
    [ids],
  );
  return new Map(rows.map((r) => [r.finding_id, { evidence: r.evidence, interviews: r.interviews }]));
}

export function findingRecord(f: FindingRow, projectRef: string, counts: { evidence: number; interviews: number } | undefined): FindingRecord {
  return {
    finding_ref: f.id,
    project_ref: projectRef,
    title: f.title,
    description: f.description,
    target_surface: f.target_surface as FindingRecord['target_surface'],
    research_state: f.research_state,
    delivery_state: f.delivery_state as FindingRecord['delivery_state'],
    provider_placement: f.provider_placement as FindingRecord['provider_placement'],
    priority_score: f.priority_score,
    priority_label: priorityLabel(f.priority_score),
    effort_estimate: f.effort_estimate,
    evidence_count: counts?.evidence ?? 0,
    interview_count: counts?.interviews ?? 0,
    implementation_branch: f.implementation_branch,
    implementation_pr_url: f.implementation_pr_url,
    implementation_pr_number: f.implementation_pr_number,
    deployed_at: iso(f.deployed_at),
    created_at: isoRequired(f.created_at),
    updated_at: isoRequired(f.updated_at),
  };
}

/** A finding of the caller's project; `lock` takes it FOR UPDATE in the caller's transaction. Another project's is not found. */
export async function findFinding(ctx: Ctx, ref: string, sql: Sql = ctx.services.db.pool, lock = false): Promise<FindingRow> {
  const [f] = await findings.select(sql, 'id = $1 AND project_id = $2', [ref, projectOf(ctx).project.id], lock ? 'FOR UPDATE' : '');
  if (!f) throw new NotFoundError(`Finding ${ref} not found`);
  return f;
}

export const FindingRefParam = z.string().min(1).max(64).describe('Finding ref (fnd_...)');
