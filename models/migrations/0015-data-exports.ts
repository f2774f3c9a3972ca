import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE data_exports (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
      progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
      projects_total integer,
      projects_done integer NOT NULL DEFAULT 0,
      storage_key text,
      size_bytes bigint,
      error_message text,
      requested_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      completed_at timestamptz,
      expires_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX data_exports_user_idx ON data_exports (user_id, requested_at DESC);
    CREATE UNIQUE INDEX data_exports_active_idx ON data_exports (user_id) WHERE status IN ('queued', 'running');
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE data_exports`);
}
