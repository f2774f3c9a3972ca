import { z } from 'zod';

export const QUESTION_TYPES = ['single_choice', 'multiple_choice', 'yes_no', 'short_text', 'long_text', 'email', 'number', 'scale'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
const CHOICE = new Set<string>(['single_choice', 'multiple_choice']);

export const QualificationRules = z
  .strictObject({
    qualify: z.array(z.string().min(1).max(200)).min(1).max(50).optional().describe('Choice answers that qualify (single: one of them; multiple: at least one)'),
    disqualify: z.array(z.string().min(1).max(200)).min(1).max(50).optional().describe('Choice answers that disqualify'),
    min: z.number().optional().describe('number/scale: lowest qualifying answer'),
    max: z.number().optional().describe('number/scale: highest qualifying answer'),
  })
  .describe('e.g. { "qualify": ["Weekly", "Daily"] } or { "min": 18 }');
export type Rules = z.output<typeof QualificationRules>;

export const QuestionInput = z.strictObject({
  question_text: z.string().trim().min(1).max(500),
  question_type: z.enum(QUESTION_TYPES),
  required: z.boolean().default(true),
  options: z.array(z.string().trim().min(1).max(200)).max(50).optional().describe('Choices, for single_choice and multiple_choice'),
  min_value: z.number().nullable().optional(),
  max_value: z.number().nullable().optional(),
  qualification_rules: QualificationRules.nullable().optional(),
});
export type QuestionInputT = z.output<typeof QuestionInput>;

export interface QuestionShape {
  question_type: string;
  options: string[] | null;
  min_value: number | null;
  max_value: number | null;
  rules: Rules | null;
}

/** Problems with a question's definition as a whole (field-level bounds are zod's job). */
export function questionProblems(q: QuestionShape, where: string): string[] {
  const out: string[] = [];
  const choices = q.question_type === 'yes_no' ? ['yes', 'no'] : q.options ?? [];
  if (CHOICE.has(q.question_type)) {
    if (choices.length < 2) out.push(`${where}.options: ${q.question_type} needs at least 2 options`);
    if (new Set(choices).size !== choices.length) out.push(`${where}.options: options must be distinct`);
  } else if (q.options?.length && q.question_type !== 'yes_no') {
    out.push(`${where}.options: only choice questions take options`);
  }
  if (q.question_type === 'scale' && (q.min_value == null || q.max_value == null)) out.push(`${where}: a scale needs min_value and max_value`);
  if (q.min_value != null && q.max_value != null && q.min_value > q.max_value) out.push(`${where}: min_value must not exceed max_value`);
  if (q.rules) {
    const numeric = q.question_type === 'number' || q.question_type === 'scale';
    const choice = CHOICE.has(q.question_type) || q.question_type === 'yes_no';
    if ((q.rules.qualify || q.rules.disqualify) && !choice) out.push(`${where}.qualification_rules: qualify/disqualify apply to choice questions`);
    if ((q.rules.min !== undefined || q.rules.max !== undefined) && !numeric) out.push(`${where}.qualification_rules: min/max apply to number and scale questions`);
    for (const key of ['qualify', 'disqualify'] as const) {
      for (const v of q.rules[key] ?? []) if (!choices.includes(v)) out.push(`${where}.qualification_rules.${key}: "${v}" is not one of the options`);
    }
    if (!q.rules.qualify && !q.rules.disqualify && q.rules.min === undefined && q.rules.max === undefined) out.push(`${where}.qualification_rules: empty rules; use null`);
  }
  return out;
}

export interface StoredQuestion extends QuestionShape {
  id: string;
  question_text: string;
  required: boolean;
}

/** One answer as a form sends it; checkAnswer checks it against its question. */
export const IntakeAnswer = z
  .union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()])
  .describe(
    'An option (single_choice), a list of options (multiple_choice), yes/no or true/false (yes_no), text, an e-mail address, or a number ' +
      '(number, scale); null or "" leaves an optional question unanswered',
  );

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checks one answer's form; returns the normalised answer or an error message. */
export function checkAnswer(q: StoredQuestion, raw: unknown): { value: unknown } | { error: string } {
  switch (q.question_type) {
    case 'single_choice':
      return typeof raw === 'string' && q.options!.includes(raw) ? { value: raw } : { error: 'must be one of the options' };
    case 'multiple_choice':
      return Array.isArray(raw) && raw.length > 0 && raw.every((v) => typeof v === 'string' && q.options!.includes(v)) && new Set(raw).size === raw.length
        ? { value: raw }
        : { error: 'must be a list of distinct options' };
    case 'yes_no': {
      const said = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
      if (said === true || said === 'yes') return { value: 'yes' };
      if (said === false || said === 'no') return { value: 'no' };
      return { error: 'must be yes or no' };
    }
    case 'short_text':
    case 'long_text': {
      const max = q.question_type === 'short_text' ? 200 : 4000;
      return typeof raw === 'string' && raw.trim().length > 0 && raw.length <= max ? { value: raw.trim() } : { error: `must be text of 1-${max} characters` };
    }
    case 'email':
      return typeof raw === 'string' && raw.length <= 320 && EMAIL.test(raw) ? { value: raw.trim() } : { error: 'must be an e-mail address' };
    case 'number':
    case 'scale': {
      const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      if (typeof n !== 'number' || !Number.isFinite(n)) return { error: 'must be a number' };
      if (q.question_type === 'scale' && !Number.isInteger(n)) return { error: 'must be a whole number' };
      if (q.min_value != null && n < q.min_value) return { error: `must be at least ${q.min_value}` };
      if (q.max_value != null && n > q.max_value) return { error: `must be at most ${q.max_value}` };
      return { value: n };
    }
    default:
      return { error: 'unsupported question type' };
  }
}

/** Why an answer fails its question's rules, or null when it qualifies. */
export function ruleFailure(q: StoredQuestion, value: unknown): string | null {
  const r = q.rules;
  if (!r) return null;
  const picked = Array.isArray(value) ? (value as string[]) : [String(value)];
  if (r.disqualify && picked.some((v) => r.disqualify!.includes(v))) return `"${q.question_text}": the answer disqualifies`;
  if (r.qualify && !picked.some((v) => r.qualify!.includes(v))) return `"${q.question_text}": the answer is not one that qualifies`;
  if (typeof value === 'number') {
    if (r.min !== undefined && value < r.min) return `"${q.question_text}": below ${r.min}`;
    if (r.max !== undefined && value > r.max) return `"${q.question_text}": above ${r.max}`;
  }
  return null;
}

/**
 * Validates a set of answers against the questions and evaluates qualification.
 * Form errors throw (the caller answers 400); rule failures only disqualify.
 */
export function evaluate(questions: StoredQuestion[], answers: Record<string, unknown>): { errors: string[]; normalised: Record<string, unknown>; failures: string[] } {
  const errors: string[] = [];
  const failures: string[] = [];
  const normalised: Record<string, unknown> = {};
  const known = new Set(questions.map((q) => q.id));
  for (const id of Object.keys(answers)) if (!known.has(id)) errors.push(`answers.${id}: no such question`);
  for (const q of questions) {
    const raw = answers[q.id];
    if (raw === undefined || raw === null || raw === '') {
      if (q.required) errors.push(`answers.${q.id}: an answer is required`);
      continue;
    }
    const checked = checkAnswer(q, raw);
    if ('error' in checked) {
      errors.push(`answers.${q.id}: ${checked.error}`);
      continue;
    }
    normalised[q.id] = checked.value;
    const failure = ruleFailure(q, checked.value);
    if (failure) failures.push(failure);
  }
  return { errors, normalised, failures };
}
