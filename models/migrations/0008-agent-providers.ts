import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE agent_providers (
      id text PRIMARY KEY,
      issuer text NOT NULL UNIQUE,
      name text NOT NULL,
      jwks_uri text,
      jwks jsonb,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((jwks_uri IS NULL) <> (jwks IS NULL))
    );
    CREATE TABLE agent_seen_jtis (
      issuer text NOT NULL,
      jti text NOT NULL,
      purpose text NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (issuer, jti, purpose)
    );
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE agent_seen_jtis, agent_providers`);
}
