import { z } from 'zod';
import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import type { StudyAttrs } from '../../models/index.ts';
import type { Sql } from '../../core/tx.ts';
import { table } from '../../core/table.ts';
import { NotFoundError } from '../../core/errors.ts';
import { Timestamp, isoRequired } from '../common.ts';
import { Invitation, Visibility } from './schemas.ts';
import { invitationState, visibilityState } from './placement.ts';

/** A `studies` row as `pg` reads it: jsonb columns parsed, the *_json text columns as text. */
export type StudyRow = StudyAttrs;

export const studies = table<StudyRow>()('studies', [
  'id', 'project_id', 'handle', 'title', 'description', 'status', 'goals_json', 'script_json', 'settings_json', 'invitation_json',
  'visibility_json', 'allowed_origins', 'allowed_selectors', 'intake_id', 'intake_auto_created', 'version', 'origin_guard_failure',
  'created_at', 'updated_at',
]);

const JSONB_COLUMNS = ['invitation_json', 'visibility_json', 'allowed_origins', 'allowed_selectors', 'origin_guard_failure'] as const;

/**
 * Study column values as `pg` takes them: jsonb columns as JSON text (pg would send a JS array
 * as a Postgres array literal). For `studies.insert` and `studies.update`.
 */
export function studyColumns<T extends Partial<StudyRow>>(cols: T): T {
  const out: Record<string, unknown> = { ...cols };
  for (const k of JSONB_COLUMNS) if (out[k] != null) out[k] = JSON.stringify(out[k]);
  return out as T;
}

const State = z.enum(['absent', 'valid', 'invalid']);

export const Study = z
  .object({
    ref: z.string(),
    handle: z.string(),
    project_ref: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    status: z.string().describe('draft, active, paused or closed; only active studies take interviews and placements'),
    version: z.number().int().describe('Increases with every change; send it back as expected_version to avoid lost updates'),
    goals_json: z.string().nullable(),
    script_json: z.string().nullable(),
    settings_json: z.string().nullable(),
    invitation: z.union([Invitation, z.record(z.string(), z.unknown())]).nullable(),
    invitation_state: State,
    visibility: z.union([Visibility, z.record(z.string(), z.unknown())]).nullable(),
    visibility_state: State,
    recruitment_url: z.string().nullable().describe('Shareable page URL for a direct_link invitation once an allowed origin exists'),
    allowed_selectors: z.array(z.string()),
    allowed_origins: z.array(z.string()),
    intake_ref: z.string().nullable(),
    intake_auto_created: z.boolean().optional(),
    origin_guard_failure: z
      .object({
        session_id: z.string().nullable(),
        code: z.enum(['origin_required', 'origin_invalid', 'origin_not_allowed']),
        reason: z.string(),
        request_origin: z.string().nullable(),
        normalized_origin: z.string().nullable(),
        allowed_origins: z.array(z.string()),
        policy_source: z.string().nullable(),
        occurred_at: z.string(),
      })
      .nullable()
      .optional()
      .describe('The latest widget request this study refused for its origin'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Study' });
export type StudyRecord = z.input<typeof Study>;

/** The page a direct-link invitation opens on: the first exact include rule, else the site root. */
export function recruitmentUrl(study: StudyRow): string | null {
  const invitation = study.invitation_json as { presentation_mode?: string } | null;
  if (invitationState(study) !== 'valid' || invitation?.presentation_mode !== 'direct_link') return null;
  const origin = study.allowed_origins[0];
  if (!origin) return null;
  const rules = (study.visibility_json as { rules?: Array<{ effect: string; match: string; pathname: string }> } | null)?.rules ?? [];
  const page = rules.find((r) => r.effect === 'include' && r.match === 'exact')?.pathname ?? '/';
  const url = new URL(page, origin);
  url.searchParams.set('verbatim_study', study.handle);
  return url.toString();
}

export function studyRecord(study: StudyRow, projectRef: string): StudyRecord {
  return {
    ref: study.id,
    handle: study.handle,
    project_ref: projectRef,
    title: study.title,
    description: study.description,
    status: study.status,
    version: study.version,
    goals_json: study.goals_json,
    script_json: study.script_json,
    settings_json: study.settings_json,
    invitation: study.invitation_json,
    invitation_state: invitationState(study),
    visibility: study.visibility_json,
    visibility_state: visibilityState(study),
    recruitment_url: recruitmentUrl(study),
    allowed_selectors: study.allowed_selectors,
    allowed_origins: study.allowed_origins,
    intake_ref: study.intake_id,
    intake_auto_created: study.intake_auto_created,
    origin_guard_failure: (study.origin_guard_failure as StudyRecord['origin_guard_failure']) ?? null,
    created_at: isoRequired(study.created_at),
    updated_at: isoRequired(study.updated_at),
  };
}

export function projectRefOf(ctx: Ctx): string {
  const { project, org } = projectOf(ctx);
  return `${org.handle}/${project.handle}`;
}

/** A study of the caller's project by ref or handle; `lock` takes it FOR UPDATE in the caller's transaction. Another project's study is not found. */
export async function findStudy(ctx: Ctx, studyId: string, sql: Sql = ctx.services.db.pool, lock = false): Promise<StudyRow> {
  const { project } = projectOf(ctx);
  const [study] = await studies.select(sql, `project_id = $1 AND ${studyId.startsWith('std_') ? 'id' : 'handle'} = $2`, [project.id, studyId], lock ? 'FOR UPDATE' : '');
  if (!study) throw new NotFoundError('Study not found');
  return study;
}

/** A study by its id alone, or null: for callers that already hold a row of the study's project (an interview). */
export async function studyById(id: string, sql: Sql): Promise<StudyRow | null> {
  const [study] = await studies.select(sql, 'id = $1', [id]);
  return study ?? null;
}

/** The project's studies (optionally only those `where` also matches, with values from $2), oldest first. */
export function projectStudies(sql: Sql, projectId: string, where = 'true', values: unknown[] = []): Promise<StudyRow[]> {
  return studies.select(sql, `project_id = $1 AND ${where}`, [projectId, ...values], 'ORDER BY created_at ASC');
}

/** Takes the project row FOR UPDATE, so placement checks and handle choices of one project run one at a time. */
export async function lockProject(sql: Sql, projectId: string): Promise<void> {
  await sql.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
}

export const StudyIdParam = z.string().min(1).max(64).describe('Study ref (std_...) or handle');
