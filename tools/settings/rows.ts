import type { Sql } from '../../core/tx.ts';
import type { ProjectSettingAttrs } from '../../models/index.ts';

/** A `project_settings` row as `pg` reads it (keyed by project and setting, so not a `table()`). */
export type ProjectSettingRow = ProjectSettingAttrs;

const COLUMNS = 'project_id, key, value, ciphertext, key_id, updated_by, last_success_at, last_error_at, last_error, created_at, updated_at';

/** The project's stored settings, by key. */
export async function projectSettings(sql: Sql, projectId: string): Promise<ProjectSettingRow[]> {
  const { rows } = await sql.query<ProjectSettingRow>({ name: 'project_settings', text: `SELECT ${COLUMNS} FROM project_settings WHERE project_id = $1 ORDER BY key`, values: [projectId] });
  return rows;
}

/** Stores one setting (a plain value or a sealed secret), forgetting the health of the one it replaces. */
export async function putSetting(sql: Sql, s: Pick<ProjectSettingRow, 'project_id' | 'key' | 'value' | 'ciphertext' | 'key_id' | 'updated_by'>): Promise<void> {
  await sql.query(
    `INSERT INTO project_settings (project_id, key, value, ciphertext, key_id, updated_by) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (project_id, key) DO UPDATE SET value = EXCLUDED.value, ciphertext = EXCLUDED.ciphertext, key_id = EXCLUDED.key_id,
       updated_by = EXCLUDED.updated_by, last_success_at = NULL, last_error_at = NULL, last_error = NULL, updated_at = now()`,
    [s.project_id, s.key, s.value, s.ciphertext, s.key_id, s.updated_by],
  );
}

export async function deleteSetting(sql: Sql, projectId: string, key: string): Promise<void> {
  await sql.query('DELETE FROM project_settings WHERE project_id = $1 AND key = $2', [projectId, key]);
}

/** Records how a call made with a stored key went (settings.key_health); answers the row as saved, if there is one. */
export async function recordSettingUse(sql: Sql, projectId: string, key: string, error: string | null): Promise<ProjectSettingRow | undefined> {
  const { rows } = await sql.query<ProjectSettingRow>(
    error === null
      ? `UPDATE project_settings SET last_success_at = now(), updated_at = now() WHERE project_id = $1 AND key = $2 RETURNING ${COLUMNS}`
      : `UPDATE project_settings SET last_error_at = now(), last_error = $3, updated_at = now() WHERE project_id = $1 AND key = $2 RETURNING ${COLUMNS}`,
    error === null ? [projectId, key] : [projectId, key, error],
  );
  return rows[0];
}
