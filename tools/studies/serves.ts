import { escapeRegExp } from '../../core/regexp.ts';

/**
 * Whether a script segment serves a goal: a talk or observe segment that names the goal's id
 * in its title, instruction or conductor_context ("Serves g-friction. …"). The id must stand
 * on its own, so g-1 is not served by a segment naming g-10. Takes the script loosely, as
 * the script review does.
 */
export function servesGoal(segment: unknown, goalId: string): boolean {
  if (typeof segment !== 'object' || segment === null) return false;
  const s = segment as Record<string, unknown>;
  if (s.mode !== 'talk' && s.mode !== 'observe') return false;
  const texts = [s.title, s.instruction, s.conductor_context].filter((t): t is string => typeof t === 'string' && t.includes(goalId));
  if (!texts.length) return false;
  const named = new RegExp(`(?<![\\w-])${escapeRegExp(goalId)}(?![\\w-])`);
  return texts.some((t) => named.test(t));
}
