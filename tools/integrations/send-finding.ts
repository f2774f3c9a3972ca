import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { DomainError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { Finding, FindingRefParam, findFinding, findingCounts, findingRecord } from '../findings/record.ts';
import { tasks } from '../work/record.ts';
import { inTransaction } from '../../core/tx.ts';
import { Delivery, checkConfigured, sendTask } from './send.ts';
import { projects } from '../projects/record.ts';
import { actorOf } from '../activity.ts';

export const sendFinding = capability({
  name: 'findings.send',
  title: 'Send a reviewed finding to the code host or tracker',
  description:
    'Hands a reviewed finding to GitHub (provider github) or Linear (provider linear): its work item (made from the finding on first send, with ' +
    'the finding\'s evidence linked) becomes an issue with the evidence quotes and links back. Sets delivery_state and provider_placement ' +
    '(triage, or backlog_fallback when the team has no triage). Sending again returns the same issue. Only reviewed findings are sent.',
  input: z.strictObject({ findingRef: FindingRefParam, provider: z.enum(['github', 'linear']) }),
  output: z.object({ finding: Finding, task_id: z.string(), delivery: Delivery }),
  annotations: { ...creates, idempotentHint: true, openWorldHint: true },
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/findings/:findingRef/send' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const taskId = await inTransaction(ctx.services.db.pool, async (sql) => {
      const finding = await findFinding(ctx, input.findingRef, sql, true);
      if (finding.research_state !== 'reviewed') {
        throw new DomainError('Only reviewed findings are sent', { code: 'finding_not_reviewed', action: 'Review the evidence, then set research_state to reviewed' });
      }
      // A send the project is not set up for is refused before its work item is made, not after.
      const [row] = await projects.select(sql, 'id = $1', [project.id]);
      await checkConfigured(ctx.services, input.provider, row);
      const [existing] = await tasks.select(sql, 'project_id = $1 AND finding_id = $2', [project.id, finding.id], 'ORDER BY created_at LIMIT 1');
      if (existing) return existing.id;
      const task = await tasks.insert(sql, {
        id: newId('tsk'),
        project_id: project.id,
        title: finding.title,
        description: finding.description,
        task_type: 'improvement',
        status: 'ready',
        priority_score: finding.priority_score,
        effort_estimate: finding.effort_estimate,
        finding_id: finding.id,
        created_by: actorOf(ctx),
      });
      // A card links to one work item: cards already linked elsewhere stay where they are.
      await sql.query(
        `INSERT INTO signal_task_links (id, signal_id, task_id, linked_by)
         SELECT 'lnk_' || substr(md5(fe.signal_id || $1), 1, 20), fe.signal_id, $1, $3 FROM finding_evidence fe WHERE fe.finding_id = $2
         ON CONFLICT (signal_id) DO NOTHING`,
        [task.id, finding.id, actorOf(ctx)],
      );
      return task.id;
    });
    const delivery = await sendTask(ctx.services, taskId, input.provider);
    const finding = await findFinding(ctx, input.findingRef);
    return { finding: findingRecord(finding, projectRefOf(ctx), (await findingCounts(ctx, [finding.id])).get(finding.id)), task_id: taskId, delivery };
  },
});
