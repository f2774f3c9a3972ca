import { newId } from '../../core/ids.ts';
import { FREE_GRANT_CREDITS } from './rules.ts';
import type { Sql } from '../../core/tx.ts';

export type LedgerKind = 'grant' | 'usage' | 'failure' | 'purchase' | 'refund';
export type PaymentStatus = 'none' | 'active' | 'past_due';

export interface LedgerEntry {
  id: string;
  organization_id: string;
  kind: LedgerKind;
  amount: number;
  interview_id: string | null;
  project_id: string | null;
  idempotency_key: string | null;
  description: string;
  created_by: string | null;
  created_at: Date;
}

export interface NewEntry {
  organizationId: string;
  kind: LedgerKind;
  amount: number;
  description: string;
  idempotencyKey?: string | null;
  createdBy?: string | null;
}

/** Adds an entry. When the idempotency key was used before, adds nothing and returns null. */
export async function addEntry(sql: Sql, e: NewEntry): Promise<LedgerEntry | null> {
  const rows = (await sql.query<LedgerEntry>(
    `INSERT INTO billing_ledger (id, organization_id, kind, amount, idempotency_key, description, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`,
    [newId('bil'), e.organizationId, e.kind, e.amount, e.idempotencyKey ?? null, e.description, e.createdBy ?? null],
  )).rows;
  return rows[0] ?? null;
}

export async function entryByKey(sql: Sql, key: string): Promise<LedgerEntry | null> {
  return (await sql.query<LedgerEntry>(`SELECT * FROM billing_ledger WHERE idempotency_key = $1`, [key])).rows[0] ?? null;
}

/** The org's billing row; created on first use together with the free starting grant. */
export async function ensureAccount(sql: Sql, organizationId: string): Promise<void> {
  await sql.query(
    `WITH account AS (
       INSERT INTO billing_accounts (organization_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING organization_id
     )
     INSERT INTO billing_ledger (id, organization_id, kind, amount, idempotency_key, description)
     SELECT $2, organization_id, 'grant', $3, 'free:' || organization_id, 'Free starting credits' FROM account
     ON CONFLICT (idempotency_key) DO NOTHING`,
    [organizationId, newId('bil'), FREE_GRANT_CREDITS],
  );
}

export interface AccountState {
  spending_cap: number | null;
  payment_status: PaymentStatus;
  balance: number;
  usage_this_month: number;
  period_start: Date;
}

type StateRow = Omit<AccountState, 'balance' | 'usage_this_month'> & { account: string | null; balance: string; usage_this_month: string };

/** Balance (sum of the ledger) and this calendar month's (UTC) usage of an org. */
export async function accountState(sql: Sql, organizationId: string): Promise<AccountState> {
  const read = async () =>
    (
      await sql.query<StateRow>(
        `SELECT a.organization_id AS account, a.spending_cap, a.payment_status, m.start AS period_start,
                COALESCE((SELECT SUM(amount) FROM billing_ledger WHERE organization_id = $1), 0) AS balance,
                COALESCE((SELECT -SUM(amount) FROM billing_ledger
                           WHERE organization_id = $1 AND kind = 'usage' AND created_at >= m.start), 0) AS usage_this_month
           FROM (SELECT date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS start) m
           LEFT JOIN billing_accounts a ON a.organization_id = $1`,
        [organizationId],
      )
    ).rows[0];
  let row = await read();
  if (!row.account) {
    await ensureAccount(sql, organizationId);
    row = await read();
  }
  return {
    spending_cap: row.spending_cap,
    payment_status: row.payment_status,
    period_start: row.period_start,
    balance: Number(row.balance),
    usage_this_month: Number(row.usage_this_month),
  };
}
