import type { SignalType } from './types.ts';

/** How a summary the pipeline wrote begins: processing again may replace it, never one a person wrote. */
export const DERIVED_SUMMARY = 'Evidence found: ';

const NAMES: Record<SignalType, [one: string, many: string]> = {
  struggling_moment: ['struggling moment', 'struggling moments'],
  desired_outcome: ['desired outcome', 'desired outcomes'],
  workaround: ['workaround', 'workarounds'],
  hiring_criteria: ['reason for choosing the product', 'reasons for choosing the product'],
  firing_moment: ['reason to leave', 'reasons to leave'],
  emotional_response: ['emotional response', 'emotional responses'],
  no_issue_found: ['moment without a problem', 'moments without a problem'],
  smooth_completion: ['smooth completion', 'smooth completions'],
  critical_error: ['critical error', 'critical errors'],
  recovery_success: ['recovery', 'recoveries'],
  decision_point: ['decision', 'decisions'],
};

const FIRST = ['critical_error', 'firing_moment', 'struggling_moment', 'workaround', 'desired_outcome'];

interface Card {
  signal_type: string;
  headline: string | null;
  confidence: number;
  intensity: number | null;
}

const list = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/**
 * What an interview's evidence comes to, for its `summary` when nobody wrote one: how many
 * moments of each kind, then three headlines to act on; "none" says an interview gave nothing.
 */
export function summaryOf(cards: Card[]): string {
  if (!cards.length) return `${DERIVED_SUMMARY}none.`;
  const counts = new Map<string, number>();
  for (const c of cards) counts.set(c.signal_type, (counts.get(c.signal_type) ?? 0) + 1);
  const kinds = [...counts].sort((a, b) => b[1] - a[1]).map(([type, n]) => `${n} ${NAMES[type as SignalType]?.[n === 1 ? 0 : 1] ?? type}`);
  // What a team acts on first: problems before praise, one of each kind before a second, the surest first.
  const rank = (c: Card) => (FIRST.indexOf(c.signal_type) + 1 || FIRST.length + 1) * 10 - c.confidence * (c.intensity ?? 0.3);
  const sorted = [...cards].filter((c) => c.headline).sort((a, b) => rank(a) - rank(b));
  const firstOfKind = sorted.filter((c, i) => sorted.findIndex((d) => d.signal_type === c.signal_type) === i);
  const points = [...new Set([...firstOfKind, ...sorted].map((c) => c.headline!))].slice(0, 3);
  // Headlines are the team's summary, not the participant's words: no quotation marks.
  return `${DERIVED_SUMMARY}${list(kinds)}.${points.length ? ` Main points: ${points.join('; ')}.` : ''}`;
}
