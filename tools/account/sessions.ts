import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { ConflictError, ValidationError } from '../../core/errors.ts';
import { Handle, RESERVED_HANDLES, updates } from '../common.ts';
import { inTransaction } from '../../core/tx.ts';
import { organizations } from '../orgs/rows.ts';
import { users } from './users.ts';

export const revokeOlderSessions = capability({
  name: 'auth.revoke_other_sessions',
  title: 'Sign out everywhere else',
  description: 'Revokes every active session of the signed-in person except the one making this call.',
  input: z.strictObject({}),
  output: z.object({ revoked: z.number().int() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  scope: 'write',
  access: 'user',
  mcp: false,
  rest: { method: 'POST', path: '/api/auth/sessions/revoke-older' },
  async handler(ctx) {
    const p = principalOf(ctx);
    if (!p.sessionId) throw new ValidationError('Only a signed-in session can revoke the others', { code: 'session_required' });
    const { rows } = await ctx.services.db.pool.query<{ id: string }>(
      `UPDATE user_sessions SET revoked_at = now(), updated_at = now() WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL RETURNING id`,
      [p.userId, p.sessionId],
    );
    return { revoked: rows.length };
  },
});

export const completeOnboarding = capability({
  name: 'auth.complete_onboarding',
  title: 'Complete first-run onboarding',
  description: 'Records first-run choices: an optional new handle for the personal workspace and the product tour state.',
  input: z.strictObject({
    org_handle: Handle.optional().describe('A new handle for the personal workspace'),
    tour_state: z.record(z.string().max(64), z.union([z.boolean(), z.string().max(200), z.number()])).optional(),
  }),
  output: z.object({ personal_org_handle: z.string().nullable(), onboarding: z.record(z.string(), z.unknown()) }),
  annotations: updates,
  scope: 'write',
  access: 'user',
  mcp: false,
  rest: { method: 'POST', path: '/api/auth/onboarding' },
  async handler(ctx, input) {
    const userId = principalOf(ctx).userId;
    return inTransaction(ctx.services.db.pool, async (sql) => {
      const [user] = await users.select(sql, 'id = $1', [userId], 'FOR UPDATE');
      if (!user) throw new Error(`User ${userId} not found`);
      const org = user.personal_org_id ? ((await organizations.select(sql, 'id = $1', [user.personal_org_id]))[0] ?? null) : null;
      if (input.org_handle && org && input.org_handle !== org.handle) {
        if (RESERVED_HANDLES.has(input.org_handle)) throw new ConflictError(`The handle "${input.org_handle}" is reserved`, { code: 'handle_reserved' });
        if ((await sql.query(`SELECT 1 FROM organizations WHERE handle = $1 LIMIT 1`, [input.org_handle])).rowCount) throw new ConflictError(`The handle "${input.org_handle}" is taken`, { code: 'handle_taken' });
        await organizations.save(sql, org, { handle: input.org_handle });
      }
      const onboarding = { ...(user.onboarding_json ?? {}), ...(input.tour_state ? { tour: input.tour_state } : {}), completed_at: new Date().toISOString() };
      await users.update(sql, user.id, { onboarding_json: onboarding });
      return { personal_org_handle: org?.handle ?? null, onboarding };
    });
  },
});
