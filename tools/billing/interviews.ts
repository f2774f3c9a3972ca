import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly, Timestamp, isoRequired } from '../common.ts';
import { OrgParam, Paging, billingOrg } from './account.ts';

const InterviewUsage = z.object({
  interview_id: z.string(),
  project_ref: z.string().nullable().describe('"org/project"; null when the project was deleted'),
  credits: z.number().int().describe('Credits charged (positive)'),
  processed_at: Timestamp,
});

export const listInterviewUsage = capability({
  name: 'billing.interview_usage',
  title: 'Credits charged per interview',
  description:
    'Which interviews used credits in your personal organization (or org=<handle>), newest first: interview id, project, ' +
    'credits and when processing completed. Paged with limit (1-100, default 50) and offset.',
  input: z.strictObject({ org: OrgParam, ...Paging }),
  output: z.object({ interviews: z.array(InterviewUsage), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  rest: { method: 'GET', path: '/api/billing/interviews' },
  async handler(ctx, input) {
    const org = await billingOrg(ctx, input.org);
    const sql = ctx.services.db.pool;
    type Row = { interview_id: string; project_ref: string | null; credits: number; processed_at: Date; total: string };
    const rows = (await sql.query<Row>(
      `SELECT e.interview_id, o.handle || '/' || p.handle AS project_ref, -e.amount AS credits, e.created_at AS processed_at,
              count(*) OVER () AS total
         FROM billing_ledger e
         LEFT JOIN projects p ON p.id = e.project_id
         LEFT JOIN organizations o ON o.id = p.organization_id
        WHERE e.organization_id = $1 AND e.kind = 'usage'
        ORDER BY e.created_at DESC, e.id DESC LIMIT $2 OFFSET $3`,
      [org.id, input.limit, input.offset],
    )).rows;
    const total = rows.length
      ? Number(rows[0].total)
      : Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM billing_ledger WHERE organization_id = $1 AND kind = 'usage'`, [org.id])).rows[0].n);
    return {
      interviews: rows.map((r) => ({ interview_id: r.interview_id, project_ref: r.project_ref, credits: r.credits, processed_at: isoRequired(r.processed_at) })),
      total,
      limit: input.limit,
      offset: input.offset,
    };
  },
});
