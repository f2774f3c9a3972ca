import type { MigrationContext } from '../migrate.ts';

/**
 * Issue 17. (1) Every write to a table that decides who may do what (and to projects) sends a
 * notification on the `verbatim_changes` channel (payload `topic:id`), whatever process or tool
 * wrote it, so every server process drops what it cached about that session, credential,
 * member, org or project.
 * (2) `evidence_versions` counts committed writes to a project's evidence, bumped at commit
 * (a deferred trigger, so the row is locked only while committing); a list reads it in the
 * same statement as its page and reuses a total counted at the same version.
 * (3) Indexes for the evidence list's filters.
 */
export async function up({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    CREATE FUNCTION verbatim_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      topic text := TG_ARGV[0];
      col text := TG_ARGV[1];
    BEGIN
      -- pg_notify is strict: a row whose column is null (a setting sealed with no key) notifies nothing.
      IF TG_OP <> 'INSERT' THEN
        PERFORM pg_notify('verbatim_changes', topic || ':' || (to_jsonb(OLD) ->> col));
      END IF;
      IF TG_OP <> 'DELETE' THEN
        PERFORM pg_notify('verbatim_changes', topic || ':' || (to_jsonb(NEW) ->> col));
      END IF;
      RETURN NULL;
    END $$;

    CREATE TRIGGER user_sessions_changed AFTER UPDATE OR DELETE ON user_sessions
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('session', 'id');
    CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('user', 'id');
    CREATE TRIGGER memberships_changed AFTER INSERT OR UPDATE OR DELETE ON memberships
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('member', 'user_id');
    CREATE TRIGGER org_members_changed AFTER INSERT OR UPDATE OR DELETE ON memberships
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('members', 'organization_id');
    CREATE TRIGGER projects_changed AFTER UPDATE OR DELETE ON projects
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('project', 'id');
    CREATE TRIGGER organizations_changed AFTER UPDATE OR DELETE ON organizations
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('org', 'id');
    CREATE TRIGGER agent_credentials_changed AFTER UPDATE OR DELETE ON agent_credentials
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('credential', 'token_hash');
    CREATE TRIGGER agent_registrations_changed AFTER UPDATE OR DELETE ON agent_registrations
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('registration', 'id');

    -- Secrets sealed with a key: health's encryption check is probed again when they change.
    CREATE TRIGGER project_settings_sealed AFTER INSERT OR UPDATE OR DELETE ON project_settings
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('sealed', 'key_id');
    CREATE TRIGGER tracker_connections_sealed AFTER INSERT OR UPDATE OR DELETE ON tracker_connections
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('sealed', 'token_key_id');
    CREATE TRIGGER user_identities_sealed AFTER INSERT OR UPDATE OR DELETE ON user_identities
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('sealed', 'token_key_id');
    CREATE TRIGGER server_secrets_sealed AFTER INSERT OR UPDATE OR DELETE ON server_secrets
      FOR EACH ROW EXECUTE FUNCTION verbatim_notify_change('sealed', 'name');

    CREATE TABLE evidence_versions (
      project_id text PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      version bigint NOT NULL DEFAULT 1
    );

    CREATE FUNCTION verbatim_bump_evidence_version() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      project text;
    BEGIN
      IF TG_TABLE_NAME = 'signals' THEN
        project := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
      ELSE
        SELECT s.project_id INTO project FROM signals s WHERE s.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.signal_id ELSE NEW.signal_id END;
      END IF;
      -- At commit a deleted project's cards go with it: nothing to count.
      IF project IS NOT NULL AND EXISTS (SELECT 1 FROM projects WHERE id = project) THEN
        INSERT INTO evidence_versions AS v (project_id) VALUES (project)
          ON CONFLICT (project_id) DO UPDATE SET version = v.version + 1;
      END IF;
      RETURN NULL;
    END $$;

    CREATE CONSTRAINT TRIGGER signals_version AFTER INSERT OR UPDATE OR DELETE ON signals
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION verbatim_bump_evidence_version();
    CREATE CONSTRAINT TRIGGER signal_task_links_version AFTER INSERT OR UPDATE OR DELETE ON signal_task_links
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION verbatim_bump_evidence_version();

    CREATE INDEX signals_type_idx ON signals (project_id, signal_type, created_at DESC, id DESC);
    CREATE INDEX signals_surface_idx ON signals (project_id, target_surface, created_at DESC, id DESC);
    CREATE INDEX signals_dismissed_idx ON signals (project_id, created_at DESC, id DESC) WHERE dismissed_at IS NOT NULL;
    DROP INDEX signals_interview_idx;
    CREATE INDEX signals_interview_idx ON signals (interview_id, created_at DESC, id DESC);
  `);
}

export async function down({ context: sql }: MigrationContext): Promise<void> {
  await sql(`
    DROP INDEX signals_type_idx; DROP INDEX signals_surface_idx; DROP INDEX signals_dismissed_idx;
    DROP INDEX signals_interview_idx; CREATE INDEX signals_interview_idx ON signals (interview_id);
    DROP TRIGGER signals_version ON signals; DROP TRIGGER signal_task_links_version ON signal_task_links;
    DROP FUNCTION verbatim_bump_evidence_version(); DROP TABLE evidence_versions;
    DROP TRIGGER user_sessions_changed ON user_sessions; DROP TRIGGER users_changed ON users;
    DROP TRIGGER memberships_changed ON memberships; DROP TRIGGER organizations_changed ON organizations;
    DROP TRIGGER org_members_changed ON memberships; DROP TRIGGER projects_changed ON projects;
    DROP TRIGGER project_settings_sealed ON project_settings; DROP TRIGGER tracker_connections_sealed ON tracker_connections;
    DROP TRIGGER user_identities_sealed ON user_identities; DROP TRIGGER server_secrets_sealed ON server_secrets;
    DROP TRIGGER agent_credentials_changed ON agent_credentials; DROP TRIGGER agent_registrations_changed ON agent_registrations;
    DROP FUNCTION verbatim_notify_change();
  `);
}
