// The words of SPEC 2.6.1 and 2.6, from the one list the server validates against.
export { SIGNAL_TYPES as TYPES, TARGET_SURFACES as SURFACES } from '../../../tools/evidence/types.ts';

const SURFACE_LABEL: Record<string, string> = {
  product_under_test: 'Product under test',
  service_widget_interview: 'Interview widget',
  interviewer_conductor_behavior: 'Interviewer',
  ambiguous_needs_review: 'Unclear surface',
};

/** What each type of card means, for people who do not speak jobs-to-be-done. */
const TYPE_MEANING: Record<string, string> = {
  struggling_moment: 'They had difficulty: could not find or understand something, or it took too long.',
  critical_error: 'The product failed: an error, a crash, lost data, a wrong result, something that never arrived.',
  workaround: 'What they do instead of, or around, the product.',
  desired_outcome: 'Something they want or need that the product does not give yet.',
  hiring_criteria: 'Why they chose, pay for or stay with the product.',
  firing_moment: 'They left, are about to switch, or say they would.',
  emotional_response: 'A feeling they had about it.',
  no_issue_found: 'They say something was not a problem.',
  smooth_completion: 'Something went well, easily or quickly.',
  recovery_success: 'After a problem, they got it working.',
  decision_point: 'A moment of choosing or weighing options.',
  direct: 'Said or shown plainly in the interview.',
  strong_circumstantial: 'Not said outright, but clear from what was said.',
  weak: 'Possible, but the words leave room for doubt (or the transcript may be misheard).',
};
export const typeMeaning = (t: string): string | undefined => TYPE_MEANING[t];

/** "struggling_moment" as "Struggling moment". */
export const typeLabel = (t: string) => t.charAt(0).toUpperCase() + t.slice(1).replace(/_/g, ' ');
export const surfaceLabel = (s: string) => SURFACE_LABEL[s] ?? typeLabel(s);

/** A moment in an interview as m:ss. */
export function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
