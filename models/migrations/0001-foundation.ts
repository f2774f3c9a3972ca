import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE server_secrets (
      name text PRIMARY KEY,
      value text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE users (
      id text PRIMARY KEY,
      email text NOT NULL,
      name text,
      is_admin boolean NOT NULL DEFAULT false,
      personal_org_id text,
      onboarding_json jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_key ON users (lower(email));

    CREATE TABLE user_sessions (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      origin text NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);

    CREATE TABLE organizations (
      id text PRIMARY KEY,
      handle text NOT NULL UNIQUE,
      name text NOT NULL,
      personal boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE users ADD CONSTRAINT users_personal_org_fk FOREIGN KEY (personal_org_id) REFERENCES organizations(id) ON DELETE SET NULL;

    CREATE TABLE memberships (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, user_id)
    );
    CREATE INDEX memberships_user_idx ON memberships (user_id);

    CREATE TABLE projects (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      handle text NOT NULL,
      name text NOT NULL,
      description text,
      codehost_repo_url text,
      codehost_default_branch text NOT NULL DEFAULT 'main',
      codehost_installation_id text,
      tracker_team_id text,
      public_key text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, handle)
    );

    CREATE TABLE studies (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      handle text NOT NULL,
      title text NOT NULL,
      description text,
      status text NOT NULL,
      goals_json text,
      script_json text,
      settings_json text,
      invitation_json jsonb,
      visibility_json jsonb,
      allowed_origins jsonb NOT NULL DEFAULT '[]',
      allowed_selectors jsonb NOT NULL DEFAULT '[]',
      intake_id text,
      version integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (project_id, handle)
    );

    CREATE TABLE project_settings (
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      key text NOT NULL,
      value text,
      ciphertext text,
      key_id text,
      updated_by text REFERENCES users(id) ON DELETE SET NULL,
      last_success_at timestamptz,
      last_error_at timestamptz,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (project_id, key),
      CHECK ((value IS NULL) <> (ciphertext IS NULL))
    );
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE project_settings, studies, projects, memberships, organizations, user_sessions, users, server_secrets CASCADE`);
}
