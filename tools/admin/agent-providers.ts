import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { JsonObject, creates, deletes, readOnly, Success } from '../common.ts';

const Provider = z.object({ id: z.string(), issuer: z.string(), name: z.string(), jwks_uri: z.string().nullable(), has_inline_jwks: z.boolean(), created_at: z.string() });
type Row = { id: string; issuer: string; name: string; jwks_uri: string | null; jwks: unknown; created_at: Date };
const record = (r: Row) => ({ id: r.id, issuer: r.issuer, name: r.name, jwks_uri: r.jwks_uri, has_inline_jwks: r.jwks !== null, created_at: r.created_at.toISOString() });

export const listAgentProviders = capability({
  name: 'admin.list_agent_providers',
  title: 'Trusted agent providers',
  description: 'The identity-assertion (ID-JAG) issuers whose agents may register with write access on request. Operators only.',
  input: z.strictObject({}),
  output: z.object({ providers: z.array(Provider) }),
  annotations: readOnly,
  scope: 'read',
  access: 'admin',
  mcp: false,
  rest: { method: 'GET', path: '/api/admin/agent-providers' },
  async handler(ctx) {
    const { rows } = await ctx.services.db.pool.query<Row>(`SELECT * FROM agent_providers ORDER BY created_at`);
    return { providers: rows.map(record) };
  },
});

export const addAgentProvider = capability({
  name: 'admin.add_agent_provider',
  title: 'Trust an agent provider',
  description: 'Adds an ID-JAG issuer to the trust list, with its key set as a jwks_uri or inline jwks. Operators only.',
  input: z.strictObject({
    issuer: z.url().max(500),
    name: z.string().trim().min(1).max(120),
    jwks_uri: z.url({ protocol: /^https?$/ }).max(2000).optional(),
    jwks: z.object({ keys: z.array(JsonObject.describe('A public JWK')).min(1).max(20) }).optional(),
  }),
  output: z.object({ provider: Provider }),
  annotations: creates,
  scope: 'write',
  access: 'admin',
  mcp: false,
  rest: { method: 'POST', path: '/api/admin/agent-providers', status: 201 },
  async handler(ctx, input) {
    if (!input.jwks_uri === !input.jwks) throw new ValidationError('Send exactly one of jwks_uri or jwks');
    try {
      const { rows } = await ctx.services.db.pool.query<Row>(
        `INSERT INTO agent_providers (id, issuer, name, jwks_uri, jwks, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [newId('apv'), input.issuer, input.name, input.jwks_uri ?? null, input.jwks ? JSON.stringify(input.jwks) : null, principalOf(ctx).userId],
      );
      return { provider: record(rows[0]) };
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new ConflictError(`${input.issuer} is already trusted`, { code: 'provider_exists' });
      throw err;
    }
  },
});

export const removeAgentProvider = capability({
  name: 'admin.remove_agent_provider',
  title: 'Stop trusting an agent provider',
  description: 'Removes an issuer from the trust list; its agents can no longer register. Operators only.',
  input: z.strictObject({ providerId: z.string().min(1).max(64) }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'admin',
  mcp: false,
  rest: { method: 'DELETE', path: '/api/admin/agent-providers/:providerId' },
  async handler(ctx, input) {
    const { rowCount } = await ctx.services.db.pool.query(`DELETE FROM agent_providers WHERE id = $1`, [input.providerId]);
    if (!rowCount) throw new NotFoundError('Provider not found');
    return { success: true };
  },
});
