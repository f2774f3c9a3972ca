import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly, updates } from '../common.ts';
import { OrgParam, billingOrg, requireManager } from './account.ts';
import { Billing, billingRecord } from './record.ts';
import { inTransaction } from '../../core/tx.ts';
import { ensureAccount } from './ledger.ts';

export const getBilling = capability({
  name: 'billing.get',
  title: 'Billing status and credits',
  description:
    'Credit balance, usage this calendar month, spending cap and payment status of your personal organization (or org=<handle>). ' +
    'Interviews cost credits once processed (one per started 10 minutes); at a balance of 0 or a reached cap, new interviews answer 402.',
  input: z.strictObject({ org: OrgParam }),
  output: z.object({ billing: Billing }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  rest: { method: 'GET', path: '/api/billing' },
  async handler(ctx, input) {
    const org = await billingOrg(ctx, input.org);
    return { billing: await billingRecord(ctx.services.db.pool, org) };
  },
});

export const setSpendingCap = capability({
  name: 'billing.set_spending_cap',
  title: 'Set the monthly spending cap',
  description:
    'Sets the most credits interviews may use per calendar month (UTC); null removes the cap. Once reached, new interviews ' +
    'answer 402 spending_cap_reached until next month. Owners and admins only.',
  input: z.strictObject({ org: OrgParam, spending_cap: z.number().int().min(0).max(100_000_000).nullable() }),
  output: z.object({ billing: Billing }),
  annotations: updates,
  scope: 'write',
  access: 'user',
  rest: { method: 'PATCH', path: '/api/billing', query: ['org'] },
  async handler(ctx, input) {
    const org = await billingOrg(ctx, input.org);
    requireManager(org, 'set the spending cap');
    await inTransaction(ctx.services.db.pool, async (sql) => {
      await ensureAccount(sql, org.id);
      await sql.query(`UPDATE billing_accounts SET spending_cap = $2, updated_at = now() WHERE organization_id = $1`, [org.id, input.spending_cap]);
    });
    return { billing: await billingRecord(ctx.services.db.pool, org) };
  },
});
