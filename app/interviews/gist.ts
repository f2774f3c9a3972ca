/**
 * What an interview was about, in a line, so interviews without a participant's name ("Anonymous")
 * can be told apart: the first main point of its summary, or the start of a summary a person wrote.
 */
export function gist(summary: string | null | undefined): string | null {
  if (!summary) return null;
  const point = /Main points: ([^;]+?)(?:;|\.$)/.exec(summary)?.[1];
  if (point) return point.trim();
  if (/^Evidence found: /.test(summary)) return null;
  return summary.length > 80 ? `${summary.slice(0, 79).replace(/\s+\S*$/, '')}…` : summary;
}
