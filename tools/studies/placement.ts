import type { StudyRow } from './record.ts';
import { Invitation, Visibility, type InvitationT, type VisibilityT } from './schemas.ts';

/**
 * Page targeting. A study with no visibility is untargeted: offered everywhere, but below
 * every targeted study. One with `enabled: false` is not placed at all (direct link only).
 * Within a study, exclude beats include. Across studies: an exact match beats a subtree
 * match, then higher priority, then lower order.
 */
export type ConfigState = 'absent' | 'valid' | 'invalid';

export function invitationState(study: Pick<StudyRow, 'invitation_json'>): ConfigState {
  if (study.invitation_json == null) return 'absent';
  return Invitation.safeParse(study.invitation_json).success ? 'valid' : 'invalid';
}

export function visibilityState(study: Pick<StudyRow, 'visibility_json'>): ConfigState {
  if (study.visibility_json == null) return 'absent';
  return Visibility.safeParse(study.visibility_json).success ? 'valid' : 'invalid';
}

export interface Placement {
  study: StudyRow;
  untargeted: boolean;
  visibility: VisibilityT | null;
  invitation: InvitationT | null;
}

/** How a placed study takes part in targeting, or null when it is not placed. */
export function placementOf(study: StudyRow): Placement | null {
  const invitation = invitationState(study) === 'valid' ? Invitation.parse(study.invitation_json) : null;
  if (study.visibility_json == null) return { study, untargeted: true, visibility: null, invitation };
  const parsed = Visibility.safeParse(study.visibility_json);
  if (!parsed.success || !parsed.data.enabled) return null;
  return { study, untargeted: false, visibility: parsed.data, invitation };
}

export function normalisePathname(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') || '/' : p;
}

const under = (root: string, p: string) => root === '/' || p === root || p.startsWith(root + '/');

/** 2 = matched by an exact include, 1 = by a subtree include, 0 = untargeted; null = not offered. */
export function specificity(pl: Placement, pathname: string): 0 | 1 | 2 | null {
  if (pl.untargeted) return 0;
  const p = normalisePathname(pathname);
  const rules = pl.visibility!.rules;
  const hits = rules.filter((r) => (r.match === 'exact' ? r.pathname === p : under(r.pathname, p)));
  if (hits.some((r) => r.effect === 'exclude')) return null;
  if (hits.some((r) => r.effect === 'include' && r.match === 'exact')) return 2;
  if (hits.some((r) => r.effect === 'include')) return 1;
  return null;
}

const primary = (tag: string) => tag.toLowerCase();
/** `en` accepts `en` and `en-US`; `pt-BR` accepts only `pt-BR`. */
const accepts = (studyLang: string, lang: string) => primary(lang) === primary(studyLang) || primary(lang).startsWith(primary(studyLang) + '-');

export function languageOk(pl: Placement, language: string | null | undefined): boolean {
  const langs = pl.visibility?.languages ?? [];
  if (!langs.length || !language) return true;
  return langs.some((l) => accepts(l, language));
}

/** A language both placements accept (null: any), or undefined when they share none. */
export function sharedLanguage(a: Placement, b: Placement): string | null | undefined {
  const la = a.visibility?.languages ?? [];
  const lb = b.visibility?.languages ?? [];
  if (!la.length && !lb.length) return null;
  if (!la.length) return lb[0];
  if (!lb.length) return la[0];
  for (const x of la) for (const y of lb) {
    if (accepts(x, y)) return y;
    if (accepts(y, x)) return x;
  }
  return undefined;
}

const priorityOf = (pl: Placement) => (pl.untargeted ? 0 : pl.visibility!.priority);
const orderOf = (pl: Placement) => (pl.untargeted ? 0 : pl.visibility!.order);

export type Resolution =
  | { kind: 'none' }
  | { kind: 'one'; placement: Placement }
  | { kind: 'ambiguous'; placements: Placement[] };

/** The study a page and language resolve to among the given placements. */
export function resolve(placements: Placement[], pathname: string, language: string | null | undefined): Resolution {
  const ranked = placements
    .map((pl) => ({ pl, spec: specificity(pl, pathname) }))
    .filter((x): x is { pl: Placement; spec: 0 | 1 | 2 } => x.spec !== null && languageOk(x.pl, language))
    .sort((a, b) => b.spec - a.spec || priorityOf(b.pl) - priorityOf(a.pl) || orderOf(a.pl) - orderOf(b.pl) || a.pl.study.id.localeCompare(b.pl.study.id));
  if (!ranked.length) return { kind: 'none' };
  const top = ranked[0];
  const tied = ranked.filter((x) => x.spec === top.spec && priorityOf(x.pl) === priorityOf(top.pl) && orderOf(x.pl) === orderOf(top.pl));
  return tied.length > 1 ? { kind: 'ambiguous', placements: tied.map((x) => x.pl) } : { kind: 'one', placement: top.pl };
}

export interface ConflictContext {
  kind: 'pathname' | 'subtree_remainder';
  pathname: string;
  language: string | null;
}

/**
 * Where two placements would both be offered with the same specificity and priority, if
 * anywhere. Candidates are every rule pathname of either study, and for each subtree
 * root a path beneath it that no rule names (its "remainder").
 */
export function conflictBetween(a: Placement, b: Placement): ConflictContext | null {
  const language = sharedLanguage(a, b);
  if (language === undefined) return null;
  if (a.untargeted || b.untargeted) {
    return a.untargeted && b.untargeted ? { kind: 'subtree_remainder', pathname: '/', language } : null;
  }
  if (priorityOf(a) !== priorityOf(b)) return null;
  const rules = [...a.visibility!.rules, ...b.visibility!.rules];
  const candidates: Array<{ probe: string; context: ConflictContext }> = [];
  for (const r of rules) candidates.push({ probe: r.pathname, context: { kind: 'pathname', pathname: r.pathname, language } });
  for (const r of rules) {
    if (r.match !== 'subtree') continue;
    const probe = `${r.pathname === '/' ? '' : r.pathname}/\u0000remainder`;
    candidates.push({ probe, context: { kind: 'subtree_remainder', pathname: r.pathname, language } });
  }
  for (const { probe, context } of candidates) {
    const sa = specificity(a, probe);
    const sb = specificity(b, probe);
    if (sa !== null && sa === sb) return context;
  }
  return null;
}
