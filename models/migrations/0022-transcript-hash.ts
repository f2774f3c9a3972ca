import type { MigrationContext } from '../migrate.ts';

/** The SHA-256 of an imported transcript's turns, so importing the same transcript again is noticed (one index lookup per import). */
export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`ALTER TABLE interviews ADD COLUMN transcript_sha256 text`);
  await sql(`CREATE INDEX interviews_transcript_sha256 ON interviews (project_id, transcript_sha256) WHERE transcript_sha256 IS NOT NULL`);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`ALTER TABLE interviews DROP COLUMN transcript_sha256`);
}
