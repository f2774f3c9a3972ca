import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE TABLE intakes (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      handle text NOT NULL,
      title text NOT NULL,
      description text,
      welcome_message text,
      status text NOT NULL CHECK (status IN ('active', 'paused', 'closed')),
      auto_managed boolean NOT NULL DEFAULT false,
      max_participants integer,
      logo_storage_key text,
      brand_color text NOT NULL,
      thank_you_message text NOT NULL,
      disqualified_message text NOT NULL,
      consent_text text NOT NULL,
      complete_count integer NOT NULL DEFAULT 0,
      qualified_count integer NOT NULL DEFAULT 0,
      disqualified_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (project_id, handle)
    );

    CREATE TABLE intake_questions (
      id text PRIMARY KEY,
      intake_id text NOT NULL REFERENCES intakes(id) ON DELETE CASCADE,
      question_text text NOT NULL,
      question_type text NOT NULL,
      required boolean NOT NULL DEFAULT true,
      sort_order integer NOT NULL,
      options_json text,
      min_value double precision,
      max_value double precision,
      qualification_rules_json text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX intake_questions_intake_idx ON intake_questions (intake_id, sort_order);

    CREATE TABLE interviews (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      study_id text REFERENCES studies(id) ON DELETE SET NULL,
      intake_id text REFERENCES intakes(id) ON DELETE SET NULL,
      intake_response_id text,
      source text NOT NULL,
      status text NOT NULL,
      processing_status text NOT NULL,
      interview_mode text,
      participant_name text,
      participant_email text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX interviews_project_idx ON interviews (project_id, created_at DESC);

    CREATE TABLE intake_responses (
      id text PRIMARY KEY,
      intake_id text NOT NULL REFERENCES intakes(id) ON DELETE CASCADE,
      participant_name text,
      participant_email text,
      qualified boolean,
      qualification_reason text,
      answers_json text NOT NULL,
      session_id text REFERENCES interviews(id) ON DELETE SET NULL,
      utm_source text,
      utm_medium text,
      utm_campaign text,
      consent_given boolean NOT NULL DEFAULT false,
      consent_recording boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX intake_responses_intake_idx ON intake_responses (intake_id, created_at);

    ALTER TABLE studies
      ADD CONSTRAINT studies_intake_fk FOREIGN KEY (intake_id) REFERENCES intakes(id) ON DELETE SET NULL,
      ADD CONSTRAINT studies_status_check CHECK (status IN ('draft', 'active', 'paused', 'closed')),
      ADD COLUMN intake_auto_created boolean NOT NULL DEFAULT false;
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    ALTER TABLE studies DROP COLUMN intake_auto_created, DROP CONSTRAINT studies_status_check, DROP CONSTRAINT studies_intake_fk;
    DROP TABLE intake_responses, interviews, intake_questions, intakes;
  `);
}
