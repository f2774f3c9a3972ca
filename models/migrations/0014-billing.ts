import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE billing_accounts (
      organization_id text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      spending_cap integer CHECK (spending_cap IS NULL OR spending_cap >= 0),
      payment_status text NOT NULL DEFAULT 'none' CHECK (payment_status IN ('none', 'active', 'past_due')),
      provider text,
      provider_customer_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    -- interview_id and project_id carry no foreign key: a charge outlives the interview it paid for.
    CREATE TABLE billing_ledger (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('grant', 'usage', 'failure', 'purchase', 'refund')),
      amount integer NOT NULL,
      interview_id text,
      project_id text,
      idempotency_key text UNIQUE,
      description text NOT NULL,
      created_by text REFERENCES users(id) ON DELETE SET NULL,
      -- clock_timestamp: entries written in one transaction (free grant, then purchase) keep their order.
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      CHECK (
        (kind IN ('grant', 'purchase', 'refund') AND amount > 0)
        OR (kind = 'usage' AND amount < 0)
        OR (kind = 'failure' AND amount = 0)
      )
    );
    CREATE INDEX billing_ledger_org_idx ON billing_ledger (organization_id, created_at DESC, id DESC);
    CREATE INDEX billing_ledger_org_kind_idx ON billing_ledger (organization_id, kind, created_at DESC);

    CREATE TABLE billing_checkout_sessions (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      credits integer NOT NULL CHECK (credits > 0),
      amount_cents integer NOT NULL CHECK (amount_cents >= 0),
      currency text NOT NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed', 'expired')),
      provider text NOT NULL,
      provider_ref text,
      url text,
      created_by text REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    );
    CREATE INDEX billing_checkout_sessions_org_idx ON billing_checkout_sessions (organization_id, created_at DESC);

  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    DROP TABLE billing_checkout_sessions;
    DROP TABLE billing_ledger;
    DROP TABLE billing_accounts;
  `);
}
