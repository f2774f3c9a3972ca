import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, principalOf } from '../../core/context.ts';
import { readOnly, updates, Timestamp, iso } from '../common.ts';
import { SETTINGS, SETTING_KEYS, SettingKeySchema, type SettingKey } from './catalog.ts';
import { maskedSettings, readSetting } from './store.ts';
import { probeModelKey } from './probe.ts';
import { ValidationError } from '../../core/errors.ts';
import { describeIssues } from '../../core/invoke.ts';
import { inTransaction } from '../../core/tx.ts';
import { deleteSetting, projectSettings, putSetting, recordSettingUse } from './rows.ts';

const Warning = z.object({
  section: z.literal('api_keys'),
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  action: z.string().optional(),
});
const SettingsOutput = z.object({
  settings: z.record(z.string(), z.string()).describe('Current values; secret values are masked'),
  warnings: z.array(Warning).optional(),
});

export const getSettings = capability({
  name: 'settings.get',
  title: 'Read project settings',
  description: 'Returns the project settings. Secret values such as openai_api_key are masked and never returned in clear.',
  input: z.strictObject({}),
  output: SettingsOutput,
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/settings' },
  handler: (ctx) => maskedSettings(ctx),
});

const patchShape = Object.fromEntries(
  SETTING_KEYS.map((k) => [k, SETTINGS[k].schema.nullable().optional().describe(`${SETTINGS[k].description} null removes it.`)]),
) as unknown as Record<SettingKey, z.ZodOptional<z.ZodNullable<z.ZodType<string>>>>;

export const updateSettings = capability({
  name: 'settings.set_config',
  title: 'Change project settings',
  description:
    'Sets or removes project settings; values are strings, null removes a setting. Secrets (openai_api_key) are encrypted at rest ' +
    'with AES-256-GCM and masked on every read. Owners and admins only.',
  input: z.strictObject(patchShape),
  output: SettingsOutput,
  annotations: updates,
  scope: 'write',
  access: 'project',
  roles: ['owner', 'admin'],
  rest: { method: 'PATCH', path: 'P/settings' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const { db, secrets } = ctx.services;
    const entries = Object.entries(input).filter(([, v]) => v !== undefined) as Array<[SettingKey, string | null]>;
    if (!entries.length) throw new ValidationError('Nothing to update: send at least one setting');
    // Seal every secret before writing anything, so a missing key leaves nothing half-written.
    const sealed = new Map(entries.filter(([k, v]) => v !== null && SETTINGS[k].secret).map(([k, v]) => [k, secrets.seal(v!, project.id)]));
    const userId = principalOf(ctx).userId;
    await inTransaction(db.pool, async (sql) => {
      for (const [key, value] of entries) {
        if (value === null) {
          await deleteSetting(sql, project.id, key);
          continue;
        }
        const secret = sealed.get(key);
        await putSetting(sql, { project_id: project.id, key, value: secret ? null : value, ciphertext: secret?.ciphertext ?? null, key_id: secret?.keyId ?? null, updated_by: userId });
      }
    });
    return maskedSettings(ctx);
  },
});

export const validateSetting = capability({
  name: 'settings.validate',
  title: 'Validate a setting before saving it',
  description:
    'Checks a candidate value for a project setting without storing it. With live=true and a model key, also asks the provider ' +
    'whether it accepts the key.',
  input: z.strictObject({
    key: SettingKeySchema,
    value: z.string().max(4000),
    live: z.boolean().default(false).describe('Also call the provider to check a model key'),
  }),
  output: z.object({
    key: SettingKeySchema,
    valid: z.boolean(),
    errors: z.array(z.string()),
    warnings: z.array(z.string()),
    live_check: z.object({ ok: z.boolean(), status: z.number().nullable(), message: z.string() }).nullable(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  scope: 'read',
  access: 'project',
  rateLimit: 10,
  rest: { method: 'POST', path: 'P/settings/validate' },
  async handler(ctx, input) {
    const def = SETTINGS[input.key];
    const parsed = def.schema.safeParse(input.value);
    const errors = parsed.success ? [] : [describeIssues(parsed.error).replace(/^body: /, `${input.key}: `)];
    const advice = parsed.success && 'advise' in def ? def.advise(input.value) : null;
    let live_check = null;
    if (input.live && parsed.success && input.key === 'openai_api_key') {
      const baseRow = (await projectSettings(ctx.services.db.pool, projectOf(ctx).project.id)).find((r) => r.key === 'openai_base_url');
      live_check = await probeModelKey(ctx.services, input.value, baseRow?.value ?? null);
    }
    return { key: input.key, valid: errors.length === 0 && (live_check?.ok ?? true), errors, warnings: advice ? [advice] : [], live_check };
  },
});

export const keyHealth = capability({
  name: 'settings.key_health',
  title: 'Project key health',
  description:
    'Per-key health of the project\'s integration keys: whether each is configured, the last successful call and the last error. ' +
    'With check=true the stored model key is tried against the provider now and the result recorded.',
  input: z.strictObject({ check: z.boolean().default(false) }),
  output: z.object({
    keys: z.array(
      z.object({
        key: z.string(),
        configured: z.boolean(),
        last_success_at: Timestamp.nullable(),
        last_error_at: Timestamp.nullable(),
        last_error: z.string().nullable(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  scope: 'read',
  access: 'project',
  rateLimit: 10,
  rest: { method: 'GET', path: 'P/settings/key-health' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const rows = await projectSettings(ctx.services.db.pool, project.id);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const keyRow = byKey.get('openai_api_key');
    if (input.check && keyRow) {
      const result = await probeModelKey(ctx.services, readSetting(ctx, keyRow), byKey.get('openai_base_url')?.value ?? null);
      Object.assign(keyRow, await recordSettingUse(ctx.services.db.pool, project.id, 'openai_api_key', result.ok ? null : result.message));
    }
    const secretKeys = SETTING_KEYS.filter((k) => SETTINGS[k].secret);
    return {
      keys: secretKeys.map((key) => {
        const row = byKey.get(key);
        return {
          key,
          configured: Boolean(row),
          last_success_at: iso(row?.last_success_at),
          last_error_at: iso(row?.last_error_at),
          last_error: row?.last_error ?? null,
        };
      }),
    };
  },
});
