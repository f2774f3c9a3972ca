import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE public_listings (
      hostname text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      destination_url text NOT NULL,
      title text NOT NULL,
      description text NOT NULL,
      status text NOT NULL CHECK (status IN ('published', 'unpublished', 'suspended')),
      icon_key text,
      icon_file text,
      icon_content_type text,
      published_at timestamptz,
      suspended_at timestamptz,
      suspended_reason text,
      suspended_by text REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX public_listings_project_idx ON public_listings (project_id);
    CREATE INDEX public_listings_published_idx ON public_listings (published_at) WHERE status = 'published';

    CREATE TABLE project_publications (
      project_id text PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      enabled boolean NOT NULL,
      updated_by text REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP TABLE project_publications; DROP TABLE public_listings;`);
}
