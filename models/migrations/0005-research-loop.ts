import type { MigrationContext } from '../migrate.ts';

export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    CREATE TABLE tasks (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      title text NOT NULL,
      description text,
      task_type text NOT NULL DEFAULT 'improvement',
      status text NOT NULL CHECK (status IN ('backlog', 'ready', 'in_progress', 'done', 'wont_fix')),
      priority_score double precision NOT NULL DEFAULT 50,
      effort_estimate text,
      review_packet boolean NOT NULL DEFAULT false,
      promoted_at timestamptz,
      finding_id text,
      tracker_issue_id text,
      tracker_issue_url text,
      tracker_issue_status text,
      completed_at timestamptz,
      created_by text,
      updated_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX tasks_project_idx ON tasks (project_id, status, priority_score DESC);
    CREATE INDEX tasks_title_trgm ON tasks USING gin (title gin_trgm_ops);

    CREATE TABLE signal_task_links (
      id text PRIMARY KEY,
      signal_id text NOT NULL UNIQUE REFERENCES signals(id) ON DELETE CASCADE,
      task_id text NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      linked_at timestamptz NOT NULL DEFAULT now(),
      linked_by text,
      resolved_at timestamptz,
      resolved_by_provider text,
      resolved_by_provider_issue_id text,
      resolution_reason text
    );
    CREATE INDEX signal_task_links_task_idx ON signal_task_links (task_id);

    CREATE TABLE findings (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      title text NOT NULL,
      description text,
      target_surface text NOT NULL,
      research_state text NOT NULL CHECK (research_state IN ('draft', 'reviewed', 'closed')),
      delivery_state text NOT NULL DEFAULT 'not_sent',
      provider_placement text,
      priority_score double precision NOT NULL DEFAULT 50,
      effort_estimate text,
      implementation_branch text,
      implementation_pr_url text,
      implementation_pr_number integer,
      deployed_at timestamptz,
      reviewed_at timestamptz,
      reviewed_by text,
      closed_at timestamptz,
      closed_by text,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX findings_project_idx ON findings (project_id, created_at DESC);

    CREATE TABLE finding_evidence (
      finding_id text NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
      signal_id text NOT NULL REFERENCES signals(id) ON DELETE CASCADE,
      added_at timestamptz NOT NULL DEFAULT now(),
      added_by text,
      PRIMARY KEY (finding_id, signal_id)
    );
    CREATE INDEX finding_evidence_signal_idx ON finding_evidence (signal_id);

    CREATE TABLE recurrence_candidates (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      signal_id text NOT NULL REFERENCES signals(id) ON DELETE CASCADE,
      related_task_id text NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      related_resolved_signal_id text REFERENCES signals(id) ON DELETE SET NULL,
      confidence double precision NOT NULL,
      reason text,
      status text NOT NULL DEFAULT 'candidate' CHECK (status IN ('candidate', 'confirmed', 'dismissed')),
      reviewed_at timestamptz,
      reviewed_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (signal_id, related_task_id)
    );

    CREATE TABLE activity (
      id bigserial PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      subject_type text NOT NULL,
      subject_id text NOT NULL,
      action text NOT NULL,
      actor_id text,
      data jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX activity_subject_idx ON activity (subject_type, subject_id, created_at);

    CREATE INDEX signals_quote_trgm ON signals USING gin (quote gin_trgm_ops);
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    DROP INDEX signals_quote_trgm;
    DROP TABLE activity, recurrence_candidates, finding_evidence, findings, signal_task_links, tasks;
  `);
}
