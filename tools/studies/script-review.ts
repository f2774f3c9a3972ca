import { z } from 'zod';
import { questionPlan } from '../conductor/questions.ts';
import { withEarlierQuestions } from '../conductor/script.ts';
import { servesGoal } from './serves.ts';
import { MAX_GOALS, MAX_SEGMENTS } from './schemas.ts';
import { notEnglish } from '../../core/language.ts';
import { spokenText } from '../conductor/speak.ts';

export const ReviewIssue = z.object({
  code: z.string(),
  message: z.string(),
  segment_id: z.string().nullable(),
  segment_index: z.number().int().nullable(),
  field: z.string().describe('Path of the field inside the script, e.g. segments[2].speak_text'),
});
export type ReviewIssueT = z.output<typeof ReviewIssue>;

export const ReviewResult = z.object({
  valid: z.boolean().describe('True when there are no errors; warnings do not block'),
  errors: z.array(ReviewIssue),
  warnings: z.array(ReviewIssue),
  summary: z.object({ segments: z.number().int(), goals: z.number().int(), by_mode: z.record(z.string(), z.number().int()) }),
  participant_questions: z
    .array(
      z.object({
        segment_id: z.string().nullable(),
        mode: z.enum(['talk', 'observe']),
        questions: z.array(z.string()),
        if_answered: z
          .array(z.object({ after: z.string(), when: z.string().describe('"yes", "no", "mentions <words>", or a score: "at most <n>", "at least <n>" or "between <n> and <m>"'), question: z.string() }))
          .describe('Questions the guide asks only on some answers ("If they say yes, ask …"), asked right after the question they follow'),
      }),
    )
    .describe('For each talk and observe segment, what the built-in conductor (no model configured) will say to the participant'),
});
export type ReviewResultT = z.output<typeof ReviewResult>;

const MODES = ['speak', 'observe', 'talk'];
const LIMITS: Record<string, number> = { id: 64, title: 200, speak_text: 4000, instruction: 4000, conductor_context: 4000 };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/**
 * Reviews a study script the way a careful researcher would, naming the segment and field
 * of each problem. Errors block saving; warnings are advice. Input is taken loosely on
 * purpose, so that a malformed script gets explanations rather than a parse failure.
 */
export function reviewScript(script: unknown, extraGoals?: unknown): ReviewResultT {
  const errors: ReviewIssueT[] = [];
  const warnings: ReviewIssueT[] = [];
  const issue = (list: ReviewIssueT[], code: string, message: string, field: string, seg?: { id: string | null; index: number }) =>
    list.push({ code, message, field, segment_id: seg?.id ?? null, segment_index: seg?.index ?? null });

  if (!isObject(script)) {
    issue(errors, 'invalid_script', 'The script must be an object with version 2, goals and segments', 'script');
    return { valid: false, errors, warnings, summary: { segments: 0, goals: 0, by_mode: {} }, participant_questions: [] };
  }
  for (const key of Object.keys(script)) {
    if (!['version', 'goals', 'segments'].includes(key)) issue(errors, 'unknown_field', `Unknown field ${key}`, key);
  }
  if (script.version !== 2) issue(errors, 'unsupported_version', 'version must be 2', 'version');

  // A script past the limits is refused before any of it is read: reading it costs more the longer it is.
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  const segmentCount = count(script.segments);
  if (segmentCount > MAX_SEGMENTS) issue(errors, 'too_many_segments', `A script has at most ${MAX_SEGMENTS} segments; this one has ${segmentCount}`, 'segments');
  for (const [where, list] of [['goals', script.goals], ['goals (study)', extraGoals]] as const) {
    if (count(list) > MAX_GOALS) issue(errors, 'too_many_goals', `A study has at most ${MAX_GOALS} goals; this one has ${count(list)}`, where);
  }
  if (errors.some((e) => e.code === 'too_many_segments' || e.code === 'too_many_goals')) {
    return { valid: false, errors, warnings, summary: { segments: segmentCount, goals: count(script.goals), by_mode: {} }, participant_questions: [] };
  }
  const goals: Array<{ id: string; description: string }> = [];
  const goalSources: Array<[string, unknown]> = [['goals', script.goals]];
  if (extraGoals !== undefined) goalSources.push(['goals (study)', extraGoals]);
  const goalIds = new Set<string>();
  for (const [where, list] of goalSources) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      issue(errors, 'invalid_goals', 'goals must be a list of { id, description }', where);
      continue;
    }
    list.forEach((g, i) => {
      if (!isObject(g) || !nonEmpty(g.id) || !nonEmpty(g.description)) {
        issue(errors, 'invalid_goal', 'Each goal needs a non-empty id and description', `${where}[${i}]`);
      } else if (!goalIds.has(g.id)) {
        goalIds.add(g.id);
        goals.push({ id: g.id, description: g.description });
      } else if (where === 'goals') {
        issue(errors, 'duplicate_goal_id', `Goal id ${g.id} is used twice`, `${where}[${i}].id`);
      }
    });
  }

  const segments = script.segments;
  const byMode: Record<string, number> = {};
  const participantQuestions: ReviewResultT['participant_questions'] = [];
  if (!Array.isArray(segments) || segments.length === 0) {
    issue(errors, 'empty_script', 'The script has no segments: add at least one speak, observe or talk segment', 'segments');
  } else {
    const seen = new Map<string, number>();
    // As the conductor runs them: "Same rating q for Task B" is the earlier rating question (conductor/script.ts).
    const text = (raw: unknown, key: string) => (isObject(raw) && typeof raw[key] === 'string' ? (raw[key] as string) : undefined);
    const runnable = withEarlierQuestions(segments.map((raw) => ({ mode: text(raw, 'mode') ?? '', title: text(raw, 'title') ?? '', instruction: text(raw, 'instruction') })));
    segments.forEach((raw, index) => {
      const field = (f: string) => `segments[${index}].${f}`;
      if (!isObject(raw)) {
        issue(errors, 'invalid_segment', 'A segment must be an object', `segments[${index}]`, { id: null, index });
        return;
      }
      const id = nonEmpty(raw.id) ? raw.id : null;
      const seg = { id, index };
      if (!id) issue(errors, 'missing_id', 'The segment needs a non-empty id', field('id'), seg);
      else if (seen.has(id)) issue(errors, 'duplicate_segment_id', `Segment id ${id} is already used by segment ${seen.get(id)}`, field('id'), seg);
      else seen.set(id, index);
      for (const key of Object.keys(raw)) {
        if (!['id', 'mode', 'title', 'speak_text', 'instruction', 'conductor_context'].includes(key)) {
          issue(errors, 'unknown_field', `Unknown segment field ${key}`, field(key), seg);
        }
      }
      for (const [key, max] of Object.entries(LIMITS)) {
        const v = raw[key];
        if (v !== undefined && typeof v !== 'string') issue(errors, 'invalid_type', `${key} must be text`, field(key), seg);
        else if (typeof v === 'string' && v.length > max) issue(errors, 'too_long', `${key} must be at most ${max} characters`, field(key), seg);
        // As creating the study would refuse it: an empty field is left out, not sent empty.
        else if (v === '') issue(errors, 'empty_field', `${key} must not be empty: leave it out instead`, field(key), seg);
      }
      const mode = raw.mode;
      if (typeof mode !== 'string' || !MODES.includes(mode)) {
        issue(errors, 'unknown_mode', `Unknown mode ${JSON.stringify(mode ?? null)}: use speak, observe or talk`, field('mode'), seg);
      } else {
        byMode[mode] = (byMode[mode] ?? 0) + 1;
      }
      if (!nonEmpty(raw.title)) issue(errors, 'missing_title', 'The segment needs a title', field('title'), seg);
      if (mode === 'speak' && !nonEmpty(raw.speak_text)) {
        issue(errors, 'missing_speak_text', 'A speak segment needs speak_text: the words the conductor says', field('speak_text'), seg);
      }
      if ((mode === 'talk' || mode === 'observe') && !nonEmpty(raw.instruction)) {
        issue(warnings, 'missing_instruction', `A ${mode} segment without an instruction leaves the conductor guessing`, field('instruction'), seg);
      }
      if ((mode === 'talk' || mode === 'observe') && (raw.instruction === undefined || (typeof raw.instruction === 'string' && raw.instruction.length <= LIMITS.instruction))) {
        const title = typeof raw.title === 'string' ? raw.title : '';
        const plan = questionPlan({ mode, title, instruction: runnable[index].instruction });
        const if_answered = plan.branches.map((b) => ({ after: plan.questions[b.after], when: b.when === 'mentions' ? `mentions ${b.words.join(' or ')}` : b.when === 'yes' || b.when === 'no' ? b.when : b.when === 'between' ? `between ${b.words[0]} and ${b.words[1]}` : `${b.when} ${b.words[0]}`, question: b.question }));
        participantQuestions.push({ segment_id: id, mode, questions: plan.questions, if_answered });
        for (const question of plan.notes) {
          issue(warnings, 'note_like_question', `"${question}" reads as a note: write it as you would ask it aloud. Without a model, participants see it as written or as the built-in conductor rewords it (participant_questions shows which).`, field('instruction'), seg);
        }
        // What the rules read as notes for the interviewer: said, so an author sees a line meant for the participant that is not asked.
        if (mode === 'talk' && plan.unasked.length && !plan.generic) {
          issue(
            warnings,
            'not_asked',
            `Without a model these lines are taken for notes to the interviewer and not asked: ${plan.unasked.map((line) => `"${line}"`).join(', ')}. A line meant for the participant reads best as a question ending in "?" or as "Ask …".`,
            field('instruction'),
            seg,
          );
        }
        if (plan.generic && nonEmpty(raw.instruction)) {
          issue(
            warnings,
            'no_participant_questions',
            `The built-in conductor finds no question for the participant in this ${mode} segment's instruction, so without a model it asks a generic one: "${plan.questions[0]}". ` +
              (mode === 'observe'
                ? 'Say the task, e.g. "Ask them to pay an invoice".'
                : 'Add a question ending in "?", or write e.g. "Ask what they used before".'),
            field('instruction'),
            seg,
          );
        }
      }
      if (mode === 'speak' && nonEmpty(raw.speak_text)) {
        const { left } = spokenText(raw.speak_text);
        if (left.length) {
          issue(warnings, 'notes_in_speak_text', `speak_text is said to the participant; these read as notes for the interviewer and are left out: ${left.map((n) => `"${n}"`).join(', ')}. Put notes in conductor_context instead.`, field('speak_text'), seg);
        }
      }
      if (mode !== 'speak' && raw.speak_text !== undefined) {
        issue(warnings, 'unused_speak_text', `speak_text is only said in speak segments; this ${String(mode)} segment ignores it`, field('speak_text'), seg);
      }
    });
    // The built-in conductor reads and asks in English: a guide in another language gets it wrong without a model.
    const said = segments.filter(isObject).map((raw) => [raw.speak_text, raw.instruction, raw.title].filter(nonEmpty).join('. '));
    const foreign = said.filter((text) => text && notEnglish(text)).length;
    if (foreign && foreign * 2 >= said.filter(Boolean).length) {
      issue(
        warnings,
        'not_english',
        'This script reads as another language than English. Without a model the built-in conductor asks, follows up and closes in English only (participant_questions shows what it would say); configure a model for the project (its openai_api_key, or LLM_API_KEY on the server) to interview in this language.',
        'segments',
      );
    }
    if (!byMode.talk && !byMode.observe) {
      issue(warnings, 'never_listens', 'No talk or observe segment: the participant never gets to answer or show anything', 'segments');
    }
    for (const goal of goals) {
      if (!segments.some((s) => servesGoal(s, goal.id))) {
        issue(warnings, 'goal_unserved', `No talk or observe segment serves goal ${goal.id} ("${goal.description}"): name ${goal.id} in a segment's conductor_context`, `goals.${goal.id}`);
      }
    }
  }
  return {
    valid: errors.length === 0,
    errors,
    warnings,
    summary: { segments: Array.isArray(segments) ? segments.length : 0, goals: goals.length, by_mode: byMode },
    participant_questions: participantQuestions,
  };
}
