import type { MigrationContext } from '../migrate.ts';

/**
 * Full-text search over evidence also reads its page context: page_title and observed facts, where
 * processing puts the text that was on screen at that moment (OCR of the recording's frames).
 */
export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    DROP INDEX signals_search_idx;
    ALTER TABLE signals DROP COLUMN search;
    ALTER TABLE signals ADD COLUMN search tsvector GENERATED ALWAYS AS (
      to_tsvector('english', coalesce(quote, '') || ' ' || coalesce(headline, '') || ' ' || coalesce(claim, '') || ' ' ||
        coalesce(page_title, '') || ' ' || coalesce(observed_facts_json, ''))
    ) STORED;
    CREATE INDEX signals_search_idx ON signals USING gin (search);
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    DROP INDEX signals_search_idx;
    ALTER TABLE signals DROP COLUMN search;
    ALTER TABLE signals ADD COLUMN search tsvector GENERATED ALWAYS AS (
      to_tsvector('english', coalesce(quote, '') || ' ' || coalesce(headline, '') || ' ' || coalesce(claim, ''))
    ) STORED;
    CREATE INDEX signals_search_idx ON signals USING gin (search);
  `);
}
