import type pg from 'pg';
import { countQuery, pageQuery, type EvidenceFilter } from '../tools/evidence/list-query.ts';

/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of the evidence list's statements for the common filters, on the
 * bench's 10,000 cards (BENCH_EXPLAIN=1): the plans docs/performance.md quotes.
 */
export async function explainEvidenceList(db: pg.Client, projectId: string, interviewId: string, taskId: string): Promise<string> {
  const filters: Array<[string, EvidenceFilter]> = [
    ['newest first', { dismissed: false }],
    ['type', { dismissed: false, type: 'workaround' }],
    ['target_surface', { dismissed: false, target_surface: 'product_under_test' }],
    ['session_id', { dismissed: false, session_id: interviewId }],
    ['task_id', { dismissed: false, task_id: taskId }],
    ['task_id=none', { dismissed: false, task_id: 'none' }],
    ['dismissed', { dismissed: true }],
    ['search', { dismissed: false, search: 'discount' }],
  ];
  let out = '';
  for (const [label, f] of filters) {
    for (const [kind, q] of [['page', pageQuery(projectId, f, { limit: 50, offset: 0, after: null })], ['count', countQuery(projectId, f)]] as const) {
      const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${q.text}`, q.values);
      out += `-- ${label} (${kind})\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n\n`;
    }
  }
  return out;
}
