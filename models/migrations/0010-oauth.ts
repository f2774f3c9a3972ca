import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE oidc_payloads (
      id text NOT NULL,
      model text NOT NULL,
      payload jsonb NOT NULL,
      grant_id text,
      user_code text,
      uid text,
      expires_at timestamptz,
      consumed_at timestamptz,
      PRIMARY KEY (id, model)
    );
    CREATE INDEX oidc_payloads_grant_idx ON oidc_payloads (grant_id);
    CREATE INDEX oidc_payloads_uid_idx ON oidc_payloads (uid);
    CREATE INDEX oidc_payloads_user_code_idx ON oidc_payloads (user_code);
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE oidc_payloads`);
}
