import { h, uid } from './dom.ts';

/** Bumped whenever the consent copy below changes; recorded with each decision. */
export const CONSENT_VERSION = 'widget-2026-11-28';

export interface ConsentChoice {
  consent_data_use: boolean;
  consent_recording: boolean;
  consent_version: string;
}

/**
 * Asks for data-use consent (required to go on) and, only when the interview can record the
 * participant's voice (`recording` is 'voice'), for that recording (optional). Nothing else is
 * ever recorded, so nothing else is asked for.
 */
export function consentView(copy: string | null, recording: 'voice' | null, onDecide: (c: ConsentChoice) => void): Node[] {
  const dataId = uid('vb-consent-data');
  const recId = uid('vb-consent-rec');
  const data = h('input', { type: 'checkbox', id: dataId });
  const rec = recording === 'voice' ? h('input', { type: 'checkbox', id: recId }) : null;
  // Not disabled, which keyboards skip and nobody explains: it says what is missing, and goes to the box.
  const hintId = uid('vb-consent-hint');
  const hint = h('p', { class: 'vb-small', id: hintId }, 'Tick the box above to agree, then continue.');
  const go = h('button', { type: 'button', class: 'vb-primary', 'aria-disabled': 'true', 'aria-describedby': hintId }, 'Continue');
  const update = () => {
    go.setAttribute('aria-disabled', String(!data.checked));
    hint.hidden = data.checked;
  };
  data.addEventListener('change', update);
  go.addEventListener('click', () => {
    if (!data.checked) {
      hint.setAttribute('role', 'alert');
      data.focus();
      return;
    }
    onDecide({ consent_data_use: true, consent_recording: rec?.checked ?? false, consent_version: CONSENT_VERSION });
  });
  const nodes: Array<Node | null> = [
    h('p', {}, copy ?? 'Before we start: your answers help the team improve the product. They are stored securely and used only for research. While you show us a task, we also note what you click on this page.'),
    h('div', { class: 'vb-check' }, data, h('label', { for: dataId }, 'I agree that my answers may be used for research.')),
    rec && h('div', { class: 'vb-check' }, rec, h('label', { for: recId }, 'You may record my voice if I choose to answer out loud (optional).')),
    hint,
    go,
  ];
  return nodes.filter((n): n is Node => n !== null);
}
