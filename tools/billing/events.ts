import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly } from '../common.ts';
import { OrgParam, Paging, billingOrg } from './account.ts';
import { BillingEvent, eventRecord } from './record.ts';
import { ensureAccount, type LedgerEntry } from './ledger.ts';

export const listBillingEvents = capability({
  name: 'billing.events',
  title: 'Billing events',
  description:
    'The credit ledger of your personal organization (or org=<handle>), newest first: grants, purchases, interview charges, ' +
    'refunds and processing failures (which cost nothing). Paged with limit (1-100, default 50) and offset.',
  input: z.strictObject({ org: OrgParam, ...Paging }),
  output: z.object({ events: z.array(BillingEvent), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  rest: { method: 'GET', path: '/api/billing/events' },
  async handler(ctx, input) {
    const org = await billingOrg(ctx, input.org);
    const sql = ctx.services.db.pool;
    await ensureAccount(sql, org.id);
    const rows = (await sql.query<LedgerEntry & { total: string }>(
      `SELECT *, count(*) OVER () AS total FROM billing_ledger WHERE organization_id = $1
        ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [org.id, input.limit, input.offset],
    )).rows;
    const total = rows.length ? Number(rows[0].total) : Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM billing_ledger WHERE organization_id = $1`, [org.id])).rows[0].n);
    return { events: rows.map(eventRecord), total, limit: input.limit, offset: input.offset };
  },
});
