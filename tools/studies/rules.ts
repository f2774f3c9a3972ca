import type { Sql } from '../../core/tx.ts';
import { projectStudies, type StudyRow } from './record.ts';
import { DomainError, ValidationError } from '../../core/errors.ts';
import type { StudyStatusT } from './schemas.ts';
import { conflictBetween, invitationState, placementOf, visibilityState } from './placement.ts';
import { reviewScript } from './script-review.ts';

/** Allowed status moves (docs/decisions.md). Closed studies can be reopened as drafts. */
export const TRANSITIONS: Record<StudyStatusT, StudyStatusT[]> = {
  draft: ['active', 'closed'],
  active: ['paused', 'closed'],
  paused: ['active', 'closed'],
  closed: ['draft'],
};

export function checkTransition(from: string, to: StudyStatusT): void {
  if (from === to) return;
  if (!TRANSITIONS[from as StudyStatusT]?.includes(to)) {
    throw new DomainError(`A ${from} study cannot become ${to}; allowed: ${TRANSITIONS[from as StudyStatusT]?.join(', ') || 'none'}`, {
      code: 'study_status_transition_invalid',
      action: `Move the study through ${TRANSITIONS[from as StudyStatusT]?.join(' or ')} first`,
    });
  }
}

/** Handles that would collide with routes under P/studies or confuse people. */
export const RESERVED_STUDY_HANDLES = new Set(['new', 'resolve-preview', 'validate-script', 'review-script', 'preview', 'import', 'export', 'settings', 'all', 'active', 'drafts']);

export function checkHandle(handle: string): void {
  if (RESERVED_STUDY_HANDLES.has(handle)) {
    throw new DomainError(`The study handle "${handle}" is reserved`, {
      code: 'STUDY_HANDLE_RESERVED',
      details: { suggestion: `${handle}-study` },
    });
  }
}

/** Refuses a script with errors, naming the first few with their segment and field. */
export function checkScript(script: unknown, goals: unknown): void {
  const review = reviewScript(script, goals);
  if (!review.valid) {
    const text = review.errors.slice(0, 5).map((e) => `${e.field}: ${e.message}`).join('; ');
    throw new ValidationError(`script: ${text}`, { code: 'invalid_script' });
  }
}

/**
 * Before a study is (or stays) active with new placement settings: its own invitation and
 * visibility must be valid, and no other active study may be offered on the same page and
 * language at the same priority. The caller holds the project lock.
 */
export async function checkPlacement(study: StudyRow, sql: Sql): Promise<void> {
  if (study.status !== 'active') return;
  for (const [configuration, state] of [['invitation', invitationState(study)], ['visibility', visibilityState(study)]] as const) {
    if (state === 'invalid') {
      throw new DomainError(`The study's ${configuration} is invalid, so it cannot be placed`, {
        code: 'study_placement_configuration_invalid',
        action: `Fix the ${configuration} (see ${configuration}_state) and try again`,
        details: { study_ref: study.id, configuration },
      });
    }
  }
  const mine = placementOf(study);
  if (!mine) return;
  const others = await projectStudies(sql, study.project_id, `status = 'active' AND id <> $2`, [study.id]);
  const conflicting: string[] = [];
  let representative = null;
  for (const other of others) {
    const theirs = placementOf(other);
    const context = theirs && conflictBetween(mine, theirs);
    if (context) {
      conflicting.push(other.id);
      representative ??= context;
    }
  }
  if (conflicting.length) {
    throw new DomainError(`Another active study is offered on the same page and language at the same priority`, {
      code: 'study_placement_conflict',
      action: 'Give one study a different priority, narrow its visibility rules or languages, or pause the other study',
      details: { conflicting_study_refs: conflicting, representative_context: representative },
    });
  }
}
