import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    ALTER TABLE interviews
      ADD COLUMN summary text,
      ADD COLUMN consent_recording boolean,
      ADD COLUMN consent_data_use boolean,
      ADD COLUMN consent_version text,
      ADD COLUMN started_at timestamptz,
      ADD COLUMN ended_at timestamptz,
      ADD COLUMN duration_seconds double precision,
      ADD COLUMN import_source text,
      ADD COLUMN transcript_format text,
      ADD COLUMN processing_step text,
      ADD COLUMN processing_error_code text,
      ADD COLUMN processing_error_message text,
      ADD COLUMN processing_retryable boolean,
      ADD COLUMN processing_error_action text,
      ADD COLUMN transcription_total integer NOT NULL DEFAULT 0,
      ADD COLUMN transcription_completed integer NOT NULL DEFAULT 0,
      ADD COLUMN evidence_count integer NOT NULL DEFAULT 0,
      ADD COLUMN processing_started_at timestamptz,
      ADD COLUMN processed_at timestamptz,
      ADD COLUMN created_by text REFERENCES users(id) ON DELETE SET NULL;
    CREATE INDEX interviews_processing_idx ON interviews (project_id, processing_status);

    CREATE TABLE interview_artifacts (
      id text PRIMARY KEY,
      interview_id text NOT NULL REFERENCES interviews(id) ON DELETE CASCADE,
      name text NOT NULL,
      kind text NOT NULL,
      storage_key text NOT NULL,
      mime_type text NOT NULL,
      size bigint NOT NULL,
      meta jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (interview_id, name)
    );

    CREATE TABLE transcript_segments (
      id text PRIMARY KEY,
      interview_id text NOT NULL REFERENCES interviews(id) ON DELETE CASCADE,
      idx integer NOT NULL,
      speaker text,
      role text NOT NULL CHECK (role IN ('participant', 'interviewer', 'unknown')),
      start_ms integer,
      end_ms integer,
      text text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (interview_id, idx)
    );

    CREATE TABLE interview_events (
      id bigserial PRIMARY KEY,
      interview_id text NOT NULL REFERENCES interviews(id) ON DELETE CASCADE,
      event_type text NOT NULL,
      timestamp_ms double precision NOT NULL,
      event_line text NOT NULL,
      data jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX interview_events_idx ON interview_events (interview_id, timestamp_ms);

    CREATE TABLE interview_messages (
      id bigserial PRIMARY KEY,
      interview_id text NOT NULL REFERENCES interviews(id) ON DELETE CASCADE,
      role text NOT NULL,
      content text NOT NULL,
      segment_id text,
      timestamp_ms double precision NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX interview_messages_idx ON interview_messages (interview_id, timestamp_ms);

    CREATE TABLE media_chunks (
      id text PRIMARY KEY,
      interview_id text NOT NULL REFERENCES interviews(id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('audio', 'screen')),
      chunk_index integer NOT NULL,
      storage_key text NOT NULL,
      mime_type text NOT NULL,
      size bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (interview_id, type, chunk_index)
    );

    CREATE TABLE media_uploads (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      storage_key text NOT NULL,
      store_upload_id text NOT NULL,
      filename text NOT NULL,
      content_type text NOT NULL,
      size bigint NOT NULL,
      part_size bigint NOT NULL,
      part_count integer NOT NULL,
      status text NOT NULL CHECK (status IN ('open', 'completed', 'aborted')),
      interview_id text REFERENCES interviews(id) ON DELETE SET NULL,
      created_by text REFERENCES users(id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE signals (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      interview_id text NOT NULL REFERENCES interviews(id) ON DELETE CASCADE,
      signal_type text NOT NULL,
      target_surface text NOT NULL,
      confidence double precision NOT NULL,
      intensity double precision,
      quote text NOT NULL,
      timestamp_ms double precision,
      segment_id text,
      page_url text,
      page_title text,
      preceding_actions jsonb,
      user_goal text,
      outcome text,
      transcript_uncertain boolean NOT NULL DEFAULT false,
      transcript_uncertainty_note text,
      headline text,
      claim text,
      reconstruction text,
      observed_facts_json text,
      evidence_grade text,
      window_start_ms double precision,
      window_end_ms double precision,
      annotation_text text,
      annotation_by text,
      annotation_at timestamptz,
      dismissed_at timestamptz,
      dismissed_reason text,
      dismissed_by text,
      review_status text,
      review_note text,
      reviewed_by text,
      reviewed_at timestamptz,
      source text NOT NULL,
      manual boolean NOT NULL DEFAULT false,
      created_by text,
      search tsvector GENERATED ALWAYS AS (
        to_tsvector('english', coalesce(quote, '') || ' ' || coalesce(headline, '') || ' ' || coalesce(claim, ''))
      ) STORED,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX signals_project_idx ON signals (project_id, created_at DESC);
    CREATE INDEX signals_interview_idx ON signals (interview_id);
    CREATE INDEX signals_search_idx ON signals USING gin (search);

    CREATE TABLE worker_heartbeats (
      worker_id text PRIMARY KEY,
      seen_at timestamptz NOT NULL DEFAULT now()
    );
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    DROP TABLE worker_heartbeats, signals, media_uploads, media_chunks, interview_messages, interview_events, transcript_segments, interview_artifacts;
    ALTER TABLE interviews DROP COLUMN summary, DROP COLUMN consent_recording, DROP COLUMN consent_data_use, DROP COLUMN consent_version,
      DROP COLUMN started_at, DROP COLUMN ended_at, DROP COLUMN duration_seconds, DROP COLUMN import_source, DROP COLUMN transcript_format,
      DROP COLUMN processing_step, DROP COLUMN processing_error_code, DROP COLUMN processing_error_message, DROP COLUMN processing_retryable, DROP COLUMN processing_error_action,
      DROP COLUMN transcription_total, DROP COLUMN transcription_completed, DROP COLUMN evidence_count, DROP COLUMN processing_started_at,
      DROP COLUMN processed_at, DROP COLUMN created_by;
  `);
}
