import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    ALTER TABLE studies ADD COLUMN origin_guard_failure jsonb;

    ALTER TABLE interviews
      ADD COLUMN conductor_state jsonb,
      ADD COLUMN conductor_token_hash text,
      ADD COLUMN conductor_seen_at timestamptz,
      ADD COLUMN finalize_after timestamptz,
      ADD COLUMN recording_health jsonb;

    CREATE TABLE screen_upload_sessions (
      id text PRIMARY KEY,
      interview_id text NOT NULL REFERENCES interviews(id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('open', 'joining', 'finalized')),
      parts jsonb NOT NULL DEFAULT '{}',
      storage_key text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX screen_upload_sessions_open_idx ON screen_upload_sessions (interview_id) WHERE status IN ('open', 'joining');

    CREATE TABLE recording_invitations (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      study_id text REFERENCES studies(id) ON DELETE SET NULL,
      guest boolean NOT NULL DEFAULT false,
      external_ref text,
      plan jsonb NOT NULL,
      launch_token text NOT NULL UNIQUE,
      status text NOT NULL CHECK (status IN ('invited', 'started', 'uploading', 'completed', 'expired', 'revoked', 'deleted')),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      interview_id text REFERENCES interviews(id) ON DELETE SET NULL,
      view_token text UNIQUE,
      created_by text REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX recording_invitations_project_idx ON recording_invitations (project_id, created_at DESC);

    ALTER TABLE organizations ADD COLUMN guest_project_id text REFERENCES projects(id) ON DELETE SET NULL;
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    ALTER TABLE organizations DROP COLUMN guest_project_id;
    DROP TABLE recording_invitations;
    DROP TABLE screen_upload_sessions;
    ALTER TABLE interviews DROP COLUMN conductor_state, DROP COLUMN conductor_token_hash, DROP COLUMN conductor_seen_at,
      DROP COLUMN finalize_after, DROP COLUMN recording_health;
    ALTER TABLE studies DROP COLUMN origin_guard_failure;
  `);
}
