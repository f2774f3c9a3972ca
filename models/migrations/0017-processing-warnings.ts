import type { MigrationContext } from '../migrate.ts';

/** Processing warnings: what a step did not do as configured (e.g. a model key it could not open), shown on the processing status. */
export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`ALTER TABLE interviews ADD COLUMN processing_warnings jsonb NOT NULL DEFAULT '[]'::jsonb`);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`ALTER TABLE interviews DROP COLUMN processing_warnings`);
}
