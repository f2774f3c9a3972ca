import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { ConflictError, NotFoundError } from '../../core/errors.ts';
import { Timestamp, isoRequired } from '../common.ts';
import { accountState, addEntry, ensureAccount, entryByKey, type LedgerEntry } from './ledger.ts';
import { MAX_GRANT_CREDITS } from './rules.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';

export interface Grant {
  organizationId: string;
  credits: number;
  description: string;
  idempotencyKey: string;
  createdBy: string | null;
}

/**
 * Adds a grant once per idempotency key. Replaying the same grant returns the first entry;
 * the key with a different grant is a conflict. Run inside a transaction.
 */
export async function grantCredits(sql: Sql, g: Grant): Promise<{ entry: LedgerEntry; replayed: boolean }> {
  await ensureAccount(sql, g.organizationId);
  const entry = await addEntry(sql, { organizationId: g.organizationId, kind: 'grant', amount: g.credits, description: g.description, idempotencyKey: g.idempotencyKey, createdBy: g.createdBy });
  if (entry) return { entry, replayed: false };
  const first = (await entryByKey(sql, g.idempotencyKey))!;
  if (first.kind !== 'grant' || first.organization_id !== g.organizationId || first.amount !== g.credits || first.description !== g.description) {
    throw new ConflictError('This idempotency key was already used for a different grant', {
      code: 'idempotency_key_reused',
      retryable: false,
      action: 'Use a new idempotency_key for a new grant, or resend the original request unchanged',
    });
  }
  return { entry: first, replayed: true };
}

export const adminGrantCredits = capability({
  name: 'admin.grant_credits',
  title: 'Grant bonus credits',
  description:
    'Grants credits to the personal organization of the user with this e-mail. idempotency_key makes it safe to retry: the same ' +
    'request again returns the first grant (replayed: true) without granting twice. Operators only.',
  input: z.strictObject({
    email: z.email().max(320),
    credits: z.number().int().min(1).max(MAX_GRANT_CREDITS),
    reason: z.string().trim().min(1).max(500).optional(),
    idempotency_key: z.string().min(1).max(200),
  }),
  output: z.object({
    grant: z.object({
      id: z.string(),
      organization: z.string(),
      email: z.string(),
      credits: z.number().int(),
      reason: z.string(),
      idempotency_key: z.string(),
      created_at: Timestamp,
    }),
    replayed: z.boolean(),
    balance: z.number().int(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'write',
  access: 'admin',
  mcp: false,
  rest: { method: 'POST', path: '/api/admin/credits/grant', status: 201 },
  async handler(ctx, input) {
    return inTransaction(ctx.services.db.pool, async (sql) => {
      const [user] = (await sql.query<{ email: string; org_id: string | null; handle: string | null }>(
        `SELECT u.email, o.id AS org_id, o.handle FROM users u LEFT JOIN organizations o ON o.id = u.personal_org_id
          WHERE lower(u.email) = lower($1)`,
        [input.email],
      )).rows;
      if (!user?.org_id) throw new NotFoundError('No user with this e-mail', { code: 'user_not_found' });
      const { entry, replayed } = await grantCredits(sql, {
        organizationId: user.org_id,
        credits: input.credits,
        description: input.reason ?? 'Bonus credits from an operator',
        idempotencyKey: `admin:${input.idempotency_key}`,
        createdBy: principalOf(ctx).userId,
      });
      return {
        grant: {
          id: entry.id,
          organization: user.handle!,
          email: user.email,
          credits: entry.amount,
          reason: entry.description,
          idempotency_key: input.idempotency_key,
          created_at: isoRequired(entry.created_at),
        },
        replayed,
        balance: (await accountState(sql, user.org_id)).balance,
      };
    });
  },
});
