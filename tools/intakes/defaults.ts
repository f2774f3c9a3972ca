import type { Transaction } from 'sequelize';
import type { IntakeRow, Models } from '../../models/index.ts';
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

export async function createIntakeRow(models: Models, projectId: string, seed: IntakeSeed, transaction: Transaction): Promise<IntakeRow> {
  const handle =
    seed.handle ??
    (await freeHandle(slugify(seed.title, 'intake'), async (h) => (await models.Intake.count({ where: { project_id: projectId, handle: h }, transaction })) > 0));
  return models.Intake.create(
    {
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
    },
    { transaction },
  );
}

/** An intake of the project by ref (itk_...) or handle. */
export async function findIntakeRow(models: Models, projectId: string, ref: string, transaction?: Transaction, lock = false): Promise<IntakeRow | null> {
  const where = ref.startsWith('itk_') ? { project_id: projectId, id: ref } : { project_id: projectId, handle: ref };
  return models.Intake.findOne({ where, transaction, ...(lock && transaction ? { lock: transaction.LOCK.UPDATE } : {}) });
}
