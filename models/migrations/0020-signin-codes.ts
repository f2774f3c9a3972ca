import type { MigrationContext } from '../migrate.ts';

/**
 * Sign-in to the workspace without an identity provider: a six-digit code e-mailed to the
 * person (kind `email_code`), or a one-time link printed by `npm run cli -- login --link`
 * (kind `link`). Only hashes are stored; a code dies after ten minutes or five wrong tries.
 */
export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE signin_codes (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('email_code', 'link')),
      email text NOT NULL,
      secret_hash text NOT NULL,
      failures integer NOT NULL DEFAULT 0,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX signin_codes_email_idx ON signin_codes (lower(email), created_at DESC);
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE signin_codes;`);
}
