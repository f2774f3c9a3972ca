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
  return script.segments?.length ? script.segments : FALLBACK;
}

/**
 * What the built-in interviewer asks in a talk or observe segment (see questions.ts): never the
 * instruction as written, only questions for the participant drawn from it, or a generic one
 * about the segment title.
 */
export function questionsOf(segment: Segment): string[] {
  return questionPlan(segment).questions;
}
