import { z } from 'zod';
import type { Sql } from '../../core/tx.ts';
import type { StudyRow } from './record.ts';
import { NotFoundError } from '../../core/errors.ts';
import { Goal, Invitation, Origin, Script, Selector, StudySettings, Visibility } from './schemas.ts';
import { findIntakeRow } from '../intakes/defaults.ts';

/** Fields a caller may set on create and update. */
export const studyFields = {
  description: z.string().max(2000).nullable().optional(),
  goals: z.array(Goal).max(50).optional().describe('Research goals, each { id, description }'),
  script: Script.optional().describe('Script version 2: goals and segments of mode speak, observe or talk'),
  settings: StudySettings.nullable().optional(),
  invitation: Invitation.nullable().optional().describe('How the widget invites people: launcher, panel copy, colours and placement; null removes it'),
  visibility: Visibility.nullable().optional().describe('Which pages and languages the study is offered on; null = everywhere, below targeted studies'),
  allowed_origins: z.array(Origin).max(20).optional().describe('Origins where the widget may run this study, e.g. https://app.example.com'),
  allowed_selectors: z.array(Selector).max(50).optional().describe('CSS selectors the observe mode may record'),
  intake_ref: z.string().min(1).max(64).nullable().optional().describe('Intake (screener) ref or handle to run before the interview; null unlinks'),
};

export type StudyFieldsInput = { [K in keyof typeof studyFields]?: z.output<(typeof studyFields)[K]> };

/** Column values for the given fields; resolves intake_ref within the project. */
export async function columnsFor(projectId: string, input: StudyFieldsInput, sql: Sql): Promise<Partial<StudyRow>> {
  const cols: Partial<StudyRow> = {};
  if (input.description !== undefined) cols.description = input.description;
  if (input.goals !== undefined) cols.goals_json = JSON.stringify(input.goals);
  if (input.script !== undefined) cols.script_json = JSON.stringify(input.script);
  if (input.settings !== undefined) cols.settings_json = input.settings === null ? null : JSON.stringify(input.settings);
  if (input.invitation !== undefined) cols.invitation_json = input.invitation;
  if (input.visibility !== undefined) cols.visibility_json = input.visibility;
  if (input.allowed_origins !== undefined) cols.allowed_origins = input.allowed_origins;
  if (input.allowed_selectors !== undefined) cols.allowed_selectors = input.allowed_selectors;
  if (input.intake_ref !== undefined) {
    if (input.intake_ref === null) cols.intake_id = null;
    else {
      const intake = await findIntakeRow(projectId, input.intake_ref, sql);
      if (!intake) throw new NotFoundError(`intake_ref: no intake ${input.intake_ref} in this project`, { code: 'intake_not_found' });
      cols.intake_id = intake.id;
    }
  }
  return cols;
}

/** Fields whose change can move where the study is offered. */
export const PLACEMENT_FIELDS = ['status', 'invitation', 'visibility', 'allowed_origins'] as const;
