import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE user_identities (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider text NOT NULL CHECK (provider IN ('codehost', 'tracker')),
      external_id text NOT NULL,
      login text,
      token_ciphertext text,
      token_key_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (provider, external_id),
      UNIQUE (user_id, provider)
    );
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE user_identities`);
}
