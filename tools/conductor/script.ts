import { questionPlan } from './questions.ts';

/** A study script segment as the conductor runs it (SPEC 2.9). */
export interface Segment {
  id: string;
  mode: 'speak' | 'observe' | 'talk';
  title: string;
  speak_text?: string;
  instruction?: string;
  conductor_context?: string;
}

/** Interviews without a study still get a conversation. */
const FALLBACK: Segment[] = [
  { id: 'welcome', mode: 'speak', title: 'Welcome', speak_text: 'Thanks for taking the time to talk with us.' },
  { id: 'experience', mode: 'talk', title: 'Your experience', instruction: 'What have you been trying to get done with the product lately? What got in your way?' },
];

export function segmentsOf(scriptJson: string | null | undefined): Segment[] {
  if (!scriptJson) return FALLBACK;
  const script = JSON.parse(scriptJson) as { segments?: Segment[] };
  return script.segments?.length ? withEarlierQuestions(script.segments) : FALLBACK;
}

/** "Same rating q for Task B (1-5).", "Same question as above for task 2": a rating question of an earlier part, referred to. */
const SAME_QUESTION = /(^|\n|[.?!][ \t]+)[ \t]*(?:[-•*][ \t]+)?same\s+(?:[\w-]+\s+){0,2}(?:question|q|rating|scale)\b[^.?!\n]*[.?!]?/i;
const RATING = /\b\d{1,2}\s*(?:-|–|to)\s*\d{1,2}\b/;

/** The segments with such a reference replaced by the rating question it refers to, asked as written. */
export function withEarlierQuestions<S extends { mode: string; title: string; instruction?: string }>(segments: S[]): S[] {
  if (!segments.some((s) => s.mode === 'talk' && SAME_QUESTION.test(s.instruction ?? ''))) return segments;
  let rating: string | null = null;
  return segments.map((s) => {
    if (s.mode !== 'talk' || !s.instruction) return s;
    // Quoted, so it is asked as written; its own quotation marks would end the quote early.
    const asked = rating?.replace(/["“”]/g, "'");
    const resolved = asked && SAME_QUESTION.test(s.instruction) ? { ...s, instruction: s.instruction.replace(SAME_QUESTION, (_, start: string) => `${start}Ask: "${asked}"\n`) } : s;
    rating = questionPlan(resolved).questions.find((q) => RATING.test(q)) ?? rating;
    return resolved;
  });
}

/**
 * What the built-in interviewer asks in a talk or observe segment (see questions.ts): never the
 * instruction as written, only questions for the participant drawn from it, or a generic one
 * about the segment title.
 */
export function questionsOf(segment: Segment): string[] {
  return questionPlan(segment).questions;
}
