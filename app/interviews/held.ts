/**
 * When an interview took place, as lists show it: an imported one on the date its transcript
 * gives (no time: the header says only the day), anything else when it was recorded here.
 */
export function heldOn(s: { source?: string | null; started_at?: string | null; created_at: string }, style: 'short' | 'long' = 'long'): string {
  if (s.source === 'import' && s.started_at) return `held ${new Date(s.started_at).toLocaleDateString([], { dateStyle: style === 'short' ? 'short' : 'medium' })}`;
  return new Date(s.created_at).toLocaleString([], style === 'short' ? { dateStyle: 'short', timeStyle: 'short' } : {});
}
