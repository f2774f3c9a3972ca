import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import { projectSettings, type ProjectSettingRow } from './rows.ts';
import { AppError } from '../../core/errors.ts';
import { SETTINGS, mask, type SettingKey } from './catalog.ts';

export interface SettingsWarning {
  section: 'api_keys';
  code: string;
  message: string;
  retryable: boolean;
  action?: string;
}

/** The plain value of a stored setting (secrets decrypted), for server-side use only. */
export function readSetting(ctx: Ctx, row: ProjectSettingRow): string {
  if (row.value !== null) return row.value;
  return ctx.services.secrets.open({ keyId: row.key_id!, ciphertext: row.ciphertext! }, row.project_id);
}

/** Settings as callers see them: secrets masked, unreadable secrets reported as warnings. */
export async function maskedSettings(ctx: Ctx): Promise<{ settings: Record<string, string>; warnings: SettingsWarning[] }> {
  const { project } = projectOf(ctx);
  const rows = await projectSettings(ctx.services.db.pool, project.id);
  const settings: Record<string, string> = {};
  const warnings: SettingsWarning[] = [];
  for (const row of rows) {
    const def = SETTINGS[row.key as SettingKey];
    if (!def) continue;
    if (!def.secret) {
      settings[row.key] = row.value ?? '';
      continue;
    }
    try {
      settings[row.key] = mask(readSetting(ctx, row));
    } catch (err) {
      settings[row.key] = '••••';
      warnings.push({
        section: 'api_keys',
        code: 'secret_unreadable',
        message: `${row.key} is stored but cannot be decrypted with this server's encryption keys`,
        retryable: false,
        action: err instanceof AppError && err.action ? err.action : `Set ${row.key} again`,
      });
    }
  }
  if (!('openai_api_key' in settings)) {
    warnings.push({
      section: 'api_keys',
      code: 'model_key_absent',
      message: 'No model key: transcripts are used as imported and evidence comes from the built-in local extractor',
      retryable: false,
      action: 'Set openai_api_key to use an OpenAI-compatible model',
    });
  }
  return { settings, warnings };
}
