import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { addJob } from '../../core/queue.ts';

export const embedBackfill = capability({
  name: 'admin.embed_backfill',
  title: 'Backfill similarity for existing evidence',
  description:
    'Queues a background job that brings existing evidence and work items up to date for similarity: it re-runs recurrence detection ' +
    'of every card against evidence of done work items (pg_trgm), for one project or all. Operators only.',
  input: z.strictObject({ project_id: z.string().max(64).optional().describe('Only this project (id); all projects when omitted') }),
  output: z.object({ queued: z.literal(true), job_key: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'write',
  access: 'admin',
  mcp: false,
  rest: { method: 'POST', path: '/api/admin/embed-backfill', status: 202 },
  async handler(ctx, input) {
    const jobKey = `embed-backfill:${input.project_id ?? 'all'}`;
    await addJob(ctx.services.db.pool, 'embed_backfill', { projectId: input.project_id ?? null }, { jobKey, maxAttempts: 3 });
    return { queued: true as const, job_key: jobKey };
  },
});
