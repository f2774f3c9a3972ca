import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE codehost_installations (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      installation_id text NOT NULL,
      account_login text,
      created_by text REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, installation_id)
    );

    CREATE TABLE tracker_connections (
      organization_id text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      token_ciphertext text NOT NULL,
      token_key_id text NOT NULL,
      workspace_id text,
      workspace_name text,
      webhook_id text,
      webhook_status text NOT NULL DEFAULT 'pending' CHECK (webhook_status IN ('pending', 'registered', 'failed')),
      webhook_error text,
      connected_by text REFERENCES users(id) ON DELETE SET NULL,
      connected_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE deliveries (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      task_id text NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      provider text NOT NULL CHECK (provider IN ('github', 'linear')),
      status text NOT NULL CHECK (status IN ('pending', 'sending', 'retrying', 'sent', 'failed')),
      target text,
      issue_id text,
      issue_number integer,
      issue_url text,
      issue_state text,
      placement text,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      last_synced_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (task_id, provider)
    );
    CREATE INDEX deliveries_issue_idx ON deliveries (provider, issue_id);

    CREATE TABLE integration_flows (
      state text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('codehost_install', 'tracker_connect')),
      organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      project_id text REFERENCES projects(id) ON DELETE CASCADE,
      user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      verifier text,
      expires_at timestamptz NOT NULL
    );

    CREATE TABLE webhook_deliveries (
      provider text NOT NULL,
      delivery_id text NOT NULL,
      event text,
      organization_id text REFERENCES organizations(id) ON DELETE CASCADE,
      outcome text,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider, delivery_id)
    );
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE webhook_deliveries, integration_flows, deliveries, tracker_connections, codehost_installations;`);
}
