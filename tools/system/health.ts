import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly } from '../common.ts';

export const health = capability({
  name: 'system.health',
  title: 'Service health',
  description: 'Whether the service is up and its database answers; checks.encryption_key tells whether secrets can be stored.',
  input: z.strictObject({}),
  output: z.object({
    status: z.string(),
    environment: z.string().optional(),
    checks: z.object({ encryption_key: z.boolean(), database: z.boolean() }),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'public',
  mcp: false,
  rest: { method: 'GET', path: '/api/health' },
  async handler(ctx) {
    const database = await ctx.services.db.pool.query('SELECT 1').then(() => true, () => false);
    const encryption_key = ctx.services.secrets.available;
    return {
      status: database && encryption_key ? 'ok' : 'degraded',
      environment: ctx.services.config.environment,
      checks: { encryption_key, database },
    };
  },
});
