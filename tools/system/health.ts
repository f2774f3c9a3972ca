import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly } from '../common.ts';
import { sealedKeyIds } from '../../auth/encryption-canary.ts';

export const health = capability({
  name: 'system.health',
  title: 'Service health',
  description:
    'Whether the service is up and its database answers; checks.encryption_key is false when this process ' +
    'cannot open a secret stored in the database (sealed with a key it does not have).',
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
    const { db, secrets } = ctx.services;
    const database = await db.pool.query('SELECT 1').then(() => true, () => false);
    const unknown = database ? (await sealedKeyIds(db.sequelize).catch(() => [])).filter((id) => !secrets.knows(id)) : [];
    const encryption_key = unknown.length === 0;
    return {
      status: database && encryption_key ? 'ok' : 'degraded',
      environment: ctx.services.config.environment,
      checks: { encryption_key, database },
    };
  },
});
