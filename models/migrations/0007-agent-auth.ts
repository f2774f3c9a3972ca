import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE agent_registrations (
      id text PRIMARY KEY,
      registration_type text NOT NULL CHECK (registration_type IN ('anonymous', 'email-verification', 'agent-provider')),
      status text NOT NULL CHECK (status IN ('registered', 'claim_in_progress', 'claimed', 'revoked')),
      email text,
      user_id text REFERENCES users(id) ON DELETE CASCADE,
      agent_context text,
      claim_token_hash text UNIQUE,
      claim_token_expires_at timestamptz,
      claim_attempt_id text,
      otp_hash text,
      otp_expires_at timestamptz,
      otp_failures integer NOT NULL DEFAULT 0,
      locked_until timestamptz,
      claimed_at timestamptz,
      expires_at timestamptz NOT NULL,
      post_claim_scopes text[] NOT NULL DEFAULT '{agent:read}',
      provider_issuer text,
      provider_subject text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE agent_credentials (
      id text PRIMARY KEY,
      registration_id text NOT NULL REFERENCES agent_registrations(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('api_key', 'access_token')),
      token_hash text NOT NULL UNIQUE,
      scopes text[] NOT NULL DEFAULT '{}',
      expires_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX agent_credentials_registration_idx ON agent_credentials (registration_id);

    CREATE TABLE otp_mail_log (
      id bigserial PRIMARY KEY,
      recipient text NOT NULL,
      sent_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX otp_mail_log_idx ON otp_mail_log (lower(recipient), sent_at);
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE otp_mail_log, agent_credentials, agent_registrations`);
}
