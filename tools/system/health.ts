import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly } from '../common.ts';
import { sealedKeyIds } from '../../auth/encryption-canary.ts';
import type { Services } from '../../core/context.ts';

/** How old a health answer may be: load balancers poll this route, and it must not cost a query each time. */
export const HEALTH_PROBE_MS = 1_000;
const probes = new WeakMap<Services, { at: number; checks: Promise<{ database: boolean; encryption_key: boolean }> }>();

async function probe({ db, secrets }: Services) {
  const database = await db.pool.query('SELECT 1').then(() => true, () => false);
  const unknown = database ? (await sealedKeyIds(db.pool).catch(() => [])).filter((id) => !secrets.knows(id)) : [];
  return { database, encryption_key: unknown.length === 0 };
}

const listening = new WeakSet<Services>();

/**
 * The last probe when it is recent, else a new one shared by every request that arrives
 * meanwhile. A sealed secret written anywhere (migration 0021 notifies `sealed:`) drops it, so
 * the encryption check is never older than the last change of a key.
 */
function checks(services: Services) {
  if (!listening.has(services)) {
    listening.add(services);
    const drop = () => probes.delete(services);
    services.changes.subscribe((topic) => topic.startsWith('sealed:') && drop(), drop);
  }
  const last = probes.get(services);
  if (last && Date.now() - last.at < HEALTH_PROBE_MS) return last.checks;
  const next = { at: Date.now(), checks: probe(services) };
  probes.set(services, next);
  return next.checks;
}

export const health = capability({
  name: 'system.health',
  title: 'Service health',
  description:
    'Whether the service is up and its database answers; checks.encryption_key is false when this process ' +
    'cannot open a secret stored in the database (sealed with a key it does not have). ' +
    'The checks are at most a second old.',
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
    const { database, encryption_key } = await checks(ctx.services);
    return {
      status: database && encryption_key ? 'ok' : 'degraded',
      environment: ctx.services.config.environment,
      checks: { encryption_key, database },
    };
  },
});
