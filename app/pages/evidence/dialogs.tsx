import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Problem } from '../../shell.tsx';
import { Dialog } from './dialog.tsx';
import type { SignalType } from '../../../tools/evidence/types.ts';
import { TYPES, typeLabel } from './labels.ts';
import { HEADLINE_MAX } from '../../../tools/evidence/types.ts';
import { useAddToFinding, useCardAction, useDraftFindings, type Correction, type Signal } from './queries.ts';

type Props = { org: string; project: string; card: Signal; onClose: () => void; onSaved: (said: string) => void };

function Actions({ busy, label, onClose }: { busy: boolean; label: string; onClose: () => void }) {
  return (
    <div className="row">
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : label}
      </button>
      <button type="button" className="secondary" onClick={onClose}>
        Cancel
      </button>
    </div>
  );
}

/** Ctrl+Enter (⌘+Enter) saves a dialog's form from any field, a multi-line one included. */
const savesOnCtrlEnter = (e: KeyboardEvent<HTMLFormElement>) => {
  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
    e.preventDefault();
    e.currentTarget.requestSubmit();
  }
};

/** Why researchers most often dismiss a card, one click (or Tab and Enter) away. */
const DISMISS_REASONS = ['Duplicate', 'Not evidence', 'Too thin to use', 'Wrong type, not worth correcting'];

/** Asks why a card is dismissed before dismissing it. */
export function DismissDialog({ org, project, card, onClose, onSaved }: Props) {
  const [reason, setReason] = useState('');
  const act = useCardAction(org, project);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    act.mutate({ id: card.id, kind: 'dismiss', reason: reason.trim() }, { onSuccess: () => (onSaved('Card dismissed'), onClose()) });
  };
  return (
    <Dialog title="Dismiss this card" onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <p className="muted small">{card.headline ?? card.quote}</p>
        <label className="stack">
          <span>Reason</span>
          <input id="dismiss-reason" data-autofocus required maxLength={500} list="dismiss-reasons" value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <div className="row" role="group" aria-label="Common reasons">
          {DISMISS_REASONS.map((r) => (
            <button key={r} type="button" className="secondary small" onClick={() => (setReason(r), document.getElementById('dismiss-reason')?.focus())}>
              {r}
            </button>
          ))}
        </div>
        <datalist id="dismiss-reasons">
          {DISMISS_REASONS.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
        <Problem error={act.error} />
        <Actions busy={act.isPending} label="Dismiss" onClose={onClose} />
      </form>
    </Dialog>
  );
}

/** Corrects what extraction concluded: the card's type, headline and claim (the quote stays the participant's words). */
export function EditDialog({ org, project, card, onClose, onSaved }: Props) {
  const [type, setType] = useState(card.signal_type as SignalType);
  const [headline, setHeadline] = useState(card.headline ?? '');
  const [claim, setClaim] = useState(card.claim ?? '');
  const act = useCardAction(org, project);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fields: Correction = {};
    if (type !== card.signal_type) fields.signal_type = type;
    if (headline.trim() !== (card.headline ?? '')) fields.headline = headline.trim() || null;
    if (claim.trim() !== (card.claim ?? '')) fields.claim = claim.trim() || null;
    if (!Object.keys(fields).length) return onClose();
    act.mutate({ id: card.id, kind: 'edit', fields }, { onSuccess: () => (onSaved('Card corrected'), onClose()) });
  };
  return (
    <Dialog title="Correct this card" onClose={onClose}>
      <form className="stack" onSubmit={submit} onKeyDown={savesOnCtrlEnter}>
        <blockquote className="muted small">“{card.quote}”</blockquote>
        <label className="stack">
          <span id="correct-type">Type</span>
          {/* Named by its label alone: the chosen option is not part of the name. */}
          <select data-autofocus aria-labelledby="correct-type" value={type} onChange={(e) => setType(e.target.value as SignalType)}>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {typeLabel(t)}
              </option>
            ))}
          </select>
        </label>
        <label className="stack">
          <span>Headline</span>
          <input maxLength={HEADLINE_MAX} value={headline} aria-describedby="correct-headline-count" onChange={(e) => setHeadline(e.target.value)} />
          <span id="correct-headline-count" className={`small ${headline.length >= HEADLINE_MAX ? 'warn' : 'muted'}`} aria-live="polite">
            {headline.length >= HEADLINE_MAX ? `${HEADLINE_MAX} of ${HEADLINE_MAX} characters: a headline can be no longer` : `${headline.length} of ${HEADLINE_MAX} characters`}
          </span>
        </label>
        <label className="stack">
          <span>Claim</span>
          <textarea rows={3} maxLength={2000} value={claim} onChange={(e) => setClaim(e.target.value)} />
        </label>
        <Problem error={act.error} />
        <Actions busy={act.isPending} label="Save" onClose={onClose} />
      </form>
    </Dialog>
  );
}

/** A researcher's note on the card. */
export function AnnotateDialog({ org, project, card, onClose, onSaved }: Props) {
  const [text, setText] = useState(card.annotation_text ?? '');
  const act = useCardAction(org, project);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    act.mutate({ id: card.id, kind: 'annotate', text }, { onSuccess: () => (onSaved('Note saved'), onClose()) });
  };
  return (
    <Dialog title="Annotate this card" onClose={onClose}>
      <form className="stack" onSubmit={submit} onKeyDown={savesOnCtrlEnter}>
        <label className="stack">
          <span>Note</span>
          <textarea data-autofocus required rows={4} maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <Problem error={act.error} />
        <Actions busy={act.isPending} label="Save note" onClose={onClose} />
      </form>
    </Dialog>
  );
}

/** Puts the card in a draft finding, or starts a new finding from it. */
export function FindingDialog({ org, project, card, onClose, onSaved }: Props) {
  const drafts = useDraftFindings(org, project, true);
  const [picked, setChoice] = useState<string | null>(null);
  // Until one is picked, the draft changed last: cards are usually grouped into the finding just started.
  const latest = (drafts.data ?? []).reduce<{ finding_ref: string; updated_at: string } | null>((a, f) => (!a || f.updated_at > a.updated_at ? f : a), null);
  const choice = picked ?? latest?.finding_ref ?? 'new';
  const [title, setTitle] = useState(card.headline ?? '');
  const add = useAddToFinding(org, project);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(choice === 'new' ? { id: card.id, title: title.trim() } : { id: card.id, finding: choice }, { onSuccess: (f) => (onSaved(`Added to the finding “${f.title}”`), onClose()) });
  };
  return (
    <Dialog title="Add to a finding" onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <fieldset className="stack review-choices">
          <legend>Finding</legend>
          {drafts.isPending ? <p className="muted" role="status">Loading draft findings…</p> : null}
          {(drafts.data ?? []).map((f) => (
            <label key={f.finding_ref} className="row">
              <input type="radio" name="finding" value={f.finding_ref} checked={choice === f.finding_ref} onChange={() => setChoice(f.finding_ref)} />
              <span>
                {f.title} <span className="muted small">· {f.evidence_count} evidence</span>
              </span>
            </label>
          ))}
          <label className="row">
            <input type="radio" name="finding" value="new" checked={choice === 'new'} onChange={() => setChoice('new')} />
            <span>A new finding</span>
          </label>
        </fieldset>
        {choice === 'new' ? (
          <label className="stack">
            <span>Title of the new finding</span>
            {/* The card's headline is offered, selected: typing replaces it rather than running on from its end. */}
            <input data-autofocus required maxLength={300} value={title} onFocus={(e) => e.currentTarget.select()} onChange={(e) => setTitle(e.target.value)} />
          </label>
        ) : null}
        <Problem error={drafts.error ?? add.error} />
        <Actions busy={add.isPending} label={choice === 'new' ? 'Create finding' : 'Add to finding'} onClose={onClose} />
      </form>
    </Dialog>
  );
}

export const SHORTCUTS: Array<[string, string]> = [
  ['j or ↓', 'Next card'],
  ['k or ↑', 'Previous card'],
  ['Home / End', 'First / last card'],
  ['r', 'Mark reviewed'],
  ['d', 'Dismiss, with a reason'],
  ['n', 'Annotate'],
  ['e', 'Correct the type, headline or claim'],
  ['f', 'Add to a finding'],
  ['/', 'Search'],
  ['?', 'These shortcuts'],
];

export function HelpDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <dl className="review-keys">
        {SHORTCUTS.map(([k, what]) => (
          <div key={k}>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" data-autofocus onClick={onClose}>
        Close
      </button>
    </Dialog>
  );
}
