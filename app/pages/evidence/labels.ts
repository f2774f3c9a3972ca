// The words of SPEC 2.6.1 and 2.6, from the one list the server validates against.
export { SIGNAL_TYPES as TYPES, TARGET_SURFACES as SURFACES } from '../../../tools/evidence/types.ts';

const SURFACE_LABEL: Record<string, string> = {
  product_under_test: 'Product under test',
  service_widget_interview: 'Interview widget',
  interviewer_conductor_behavior: 'Interviewer',
  ambiguous_needs_review: 'Unclear surface',
};

/** "struggling_moment" as "Struggling moment". */
export const typeLabel = (t: string) => t.charAt(0).toUpperCase() + t.slice(1).replace(/_/g, ' ');
export const surfaceLabel = (s: string) => SURFACE_LABEL[s] ?? typeLabel(s);

/** A moment in an interview as m:ss. */
export function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
