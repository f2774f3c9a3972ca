import { table } from '../../core/table.ts';
import type { IntakeAttrs, IntakeQuestionAttrs, IntakeResponseAttrs } from '../../models/index.ts';

/** Rows of the intake tables as `pg` reads them (the *_json columns are text). */
export type IntakeRow = IntakeAttrs;
export type IntakeQuestionRow = IntakeQuestionAttrs;
export type IntakeResponseRow = IntakeResponseAttrs;

export const intakes = table<IntakeRow>()('intakes', [
  'id', 'project_id', 'handle', 'title', 'description', 'welcome_message', 'status', 'auto_managed', 'max_participants', 'logo_storage_key',
  'brand_color', 'thank_you_message', 'disqualified_message', 'consent_text', 'complete_count', 'qualified_count', 'disqualified_count',
  'created_at', 'updated_at',
]);

export const intakeQuestions = table<IntakeQuestionRow>()('intake_questions', [
  'id', 'intake_id', 'question_text', 'question_type', 'required', 'sort_order', 'options_json', 'min_value', 'max_value',
  'qualification_rules_json', 'created_at', 'updated_at',
]);

export const intakeResponses = table<IntakeResponseRow>()('intake_responses', [
  'id', 'intake_id', 'participant_name', 'participant_email', 'qualified', 'qualification_reason', 'answers_json', 'session_id', 'utm_source',
  'utm_medium', 'utm_campaign', 'consent_given', 'consent_recording', 'created_at', 'updated_at',
]);
