import type { MigrationContext } from '../migrate.ts';

/** Evidence lists page newest first with a stable tie-break; this index serves that order directly. */
export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    DROP INDEX IF EXISTS signals_project_idx;
    CREATE INDEX signals_project_list_idx ON signals (project_id, created_at DESC, id DESC) WHERE dismissed_at IS NULL;
    CREATE INDEX signals_project_all_idx ON signals (project_id, created_at DESC, id DESC);
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`DROP INDEX signals_project_list_idx; DROP INDEX signals_project_all_idx; CREATE INDEX signals_project_idx ON signals (project_id, created_at DESC);`);
}
