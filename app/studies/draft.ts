import type { components } from '../api-types.ts';
import * as template from '../../tools/studies/starter-template.ts';

export type Study = components['schemas']['StudyOutput'];
export type Invitation = components['schemas']['StudyInvitation'];
type Script = components['schemas']['StudyScript'];
export type Segment = Script['segments'][number];
export type Goal = Script['goals'][number];
export type Rule = components['schemas']['StudyVisibility']['rules'][number];
export type Mode = Segment['mode'];

/** A segment as edited: every text field present (empty = left out), plus a key that survives reordering. */
export interface SegmentDraft {
  key: string;
  id: string;
  mode: Mode;
  title: string;
  speak_text: string;
  instruction: string;
  conductor_context: string;
}

export type Where = 'everywhere' | 'targeted' | 'nowhere';

export interface Draft {
  title: string;
  goals: Goal[];
  segments: SegmentDraft[];
  invitation: Invitation | null;
  where: Where;
  rules: Rule[];
  priority: number;
  /** Kept as read: the editor does not change them. */
  languages: string[];
  order: number;
  origins: string[];
}

let keys = 0;
export const newKey = () => `s${++keys}`;

const parse = <T,>(json: string | null, fallback: T): T => {
  try {
    return json ? (JSON.parse(json) as T) : fallback;
  } catch {
    return fallback;
  }
};

export function draftOf(study: Study): Draft {
  const script = parse<Partial<Script>>(study.script_json, {});
  const goals = parse<Goal[] | null>(study.goals_json, null) ?? script.goals ?? [];
  const vis = study.visibility as components['schemas']['StudyVisibility'] | null;
  return {
    title: study.title,
    goals,
    segments: (script.segments ?? []).map((s) => ({
      key: newKey(),
      id: s.id,
      mode: s.mode,
      title: s.title ?? '',
      speak_text: s.speak_text ?? '',
      instruction: s.instruction ?? '',
      conductor_context: s.conductor_context ?? '',
    })),
    invitation: study.invitation ? editable(study.invitation as Partial<Invitation>) : null,
    where: !vis ? 'everywhere' : vis.enabled ? 'targeted' : 'nowhere',
    rules: Array.isArray(vis?.rules) ? vis.rules : [],
    priority: typeof vis?.priority === 'number' ? vis.priority : 0,
    languages: Array.isArray(vis?.languages) ? vis.languages : [],
    order: typeof vis?.order === 'number' ? vis.order : 0,
    origins: study.allowed_origins,
  };
}

/** An invitation the form can show even when the stored one is incomplete (invitation_state invalid). */
function editable(inv: Partial<Invitation>): Invitation {
  return {
    ...inv,
    launcher: { ...starterInvitation.launcher, ...inv.launcher },
    presentation_mode: inv.presentation_mode ?? 'passive',
    brand_color: { ...starterInvitation.brand_color, ...inv.brand_color },
    placement: { ...starterInvitation.placement, ...inv.placement },
  };
}

/** JSON with object keys sorted, to compare drafts whatever order the server returns keys in. */
export function stable(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
  );
}

/** The script as the API takes it: empty optional texts left out. */
export function scriptOf(d: Draft): Script {
  return {
    version: 2,
    goals: d.goals,
    segments: d.segments.map(({ key: _key, ...s }) => {
      const out: Segment = { id: s.id, mode: s.mode, title: s.title };
      // What a segment says is said only in a speak segment: switched to talk or observe, it is not sent (nor warned about).
      for (const f of ['speak_text', 'instruction', 'conductor_context'] as const) if (s[f].trim() && (f !== 'speak_text' || s.mode === 'speak')) out[f] = s[f];
      return out;
    }),
  };
}

/** The PATCH body for everything the editor changes. */
export function bodyOf(d: Draft) {
  return {
    title: d.title,
    goals: d.goals,
    script: scriptOf(d),
    invitation: d.invitation,
    visibility:
      d.where === 'everywhere'
        ? null
        : { version: 1 as const, enabled: d.where === 'targeted', rules: d.rules, languages: d.languages, priority: d.priority, order: d.order },
    allowed_origins: d.origins.map((o) => o.trim()).filter(Boolean),
  };
}

/** A new study's template: the starter study's goals, script and invitation, from the one definition the server uses. */
export const starterGoals = template.starterGoals as Goal[];
export const starterScript = template.starterScript as Script;
export const starterInvitation = template.starterInvitation as Invitation;

/** Status moves the API allows (tools/studies/rules.ts), as buttons. */
export const MOVES: Record<string, Array<{ to: 'draft' | 'active' | 'paused' | 'closed'; label: string }>> = {
  draft: [{ to: 'active', label: 'Activate' }, { to: 'closed', label: 'Close' }],
  active: [{ to: 'paused', label: 'Pause' }, { to: 'closed', label: 'Close' }],
  paused: [{ to: 'active', label: 'Resume' }, { to: 'closed', label: 'Close' }],
  closed: [{ to: 'draft', label: 'Reopen as draft' }],
};

export const MODE_LABEL: Record<string, string> = { passive: 'Launcher', contextual: 'Launcher with teaser', direct_link: 'Direct link only' };
