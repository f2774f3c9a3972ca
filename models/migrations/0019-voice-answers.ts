import type { MigrationContext } from '../migrate.ts';

/**
 * Voice interviews: where each recorded piece starts on the interview's clock (so the merged
 * recording lines up with the messages), and which recorded answer a participant message was
 * transcribed from.
 */
export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    ALTER TABLE media_chunks ADD COLUMN started_ms integer;
    ALTER TABLE interview_messages ADD COLUMN audio_chunk_index integer;
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    ALTER TABLE media_chunks DROP COLUMN started_ms;
    ALTER TABLE interview_messages DROP COLUMN audio_chunk_index;
  `);
}
