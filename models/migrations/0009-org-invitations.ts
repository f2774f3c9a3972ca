import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE org_invitations (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      token_hash text NOT NULL UNIQUE,
      status text NOT NULL CHECK (status IN ('pending', 'accepted', 'revoked')),
      invited_by text REFERENCES users(id) ON DELETE SET NULL,
      accepted_by text REFERENCES users(id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      last_sent_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX org_invitations_pending_idx ON org_invitations (organization_id, lower(email)) WHERE status = 'pending';
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE org_invitations`);
}
