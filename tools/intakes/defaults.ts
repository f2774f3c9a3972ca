import type { Sql } from '../../core/tx.ts';
import { intakes, type IntakeRow } from './rows.ts';
import { newId, slugify } from '../../core/ids.ts';
import { freeHandle } from '../common.ts';

export const INTAKE_DEFAULTS = {
  brand_color: '#4F46E5',
  thank_you_message: 'Thank you! You are all set for the interview.',
  disqualified_message: 'Thank you for your time. This study is looking for a different profile, so we will not go further today.',
  consent_text: 'I agree to take part in this research and for my answers to be used to improve the product.',
};

export interface IntakeSeed {
  title: string;
  handle?: string;
  description?: string | null;
  welcome_message?: string | null;
  status?: IntakeRow['status'];
  auto_managed?: boolean;
  max_participants?: number | null;
  brand_color?: string;
  thank_you_message?: string;
  disqualified_message?: string;
  consent_text?: string;
}

export async function createIntakeRow(projectId: string, seed: IntakeSeed, sql: Sql): Promise<IntakeRow> {
  const handle = seed.handle ?? (await freeHandle(slugify(seed.title, 'intake'), (h) => handleTaken(projectId, h, sql)));
  return intakes.insert(sql, {
    id: newId('itk'),
    project_id: projectId,
    handle,
    title: seed.title,
    description: seed.description ?? null,
    welcome_message: seed.welcome_message ?? null,
    status: seed.status ?? 'active',
    auto_managed: seed.auto_managed ?? false,
    max_participants: seed.max_participants ?? null,
    brand_color: seed.brand_color ?? INTAKE_DEFAULTS.brand_color,
    thank_you_message: seed.thank_you_message ?? INTAKE_DEFAULTS.thank_you_message,
    disqualified_message: seed.disqualified_message ?? INTAKE_DEFAULTS.disqualified_message,
    consent_text: seed.consent_text ?? INTAKE_DEFAULTS.consent_text,
  });
}

/** Whether the project has an intake with this handle. */
export async function handleTaken(projectId: string, handle: string, sql: Sql): Promise<boolean> {
  return (await sql.query('SELECT 1 FROM intakes WHERE project_id = $1 AND handle = $2', [projectId, handle])).rows.length > 0;
}

/** An intake of the project by ref (itk_...) or handle. */
/** An intake of the project by ref (itk_...) or handle; `lock` takes it FOR UPDATE in the caller's transaction. */
export async function findIntakeRow(projectId: string, ref: string, sql: Sql, lock = false): Promise<IntakeRow | null> {
  const [intake] = await intakes.select(sql, `project_id = $1 AND ${ref.startsWith('itk_') ? 'id' : 'handle'} = $2`, [projectId, ref], lock ? 'FOR UPDATE' : '');
  return intake ?? null;
}
