import type { Services } from '../../core/context.ts';
import type { TaskRow } from '../work/record.ts';
import { clock } from '../common.ts';

const MAX_QUOTES = 20;

/**
 * The issue a work item becomes: its description, the verbatim evidence quotes with their
 * moments in the interviews, and links back to the work item and finding in Verbatim.
 */
export async function issueDraft(services: Services, task: TaskRow, projectPath: string): Promise<{ title: string; body: string }> {
  const { rows } = await services.db.pool.query<{ quote: string; signal_type: string; timestamp_ms: number | null; session_id: string; id: string }>(
    `SELECT s.id, s.quote, s.signal_type, s.timestamp_ms, s.interview_id AS session_id FROM signal_task_links l JOIN signals s ON s.id = l.signal_id
      WHERE l.task_id = $1 AND s.dismissed_at IS NULL ORDER BY s.confidence DESC, s.created_at LIMIT $2`,
    [task.id, MAX_QUOTES],
  );
  const base = `${services.baseUrl()}${projectPath}`;
  const lines = [task.description ?? '', ''];
  if (rows.length) {
    lines.push('## Evidence', '');
    for (const r of rows) {
      lines.push(`> ${r.quote.replace(/\n+/g, ' ')}`, '', `— ${r.signal_type.replace(/_/g, ' ')}${r.timestamp_ms != null ? ` at ${clock(r.timestamp_ms)}` : ''}, [evidence ${r.id}](${base}/signals/${r.id}) from [interview ${r.session_id}](${base}/sessions/${r.session_id})`, '');
    }
  }
  lines.push('---', `[Work item in Verbatim](${base}/tasks/${task.id})${task.finding_id ? ` · [finding](${base}/findings/${task.finding_id})` : ''}`);
  return { title: task.title, body: lines.join('\n').trim() };
}
