import { h, uid } from './dom.ts';

/** Bumped whenever the consent copy below changes; recorded with each decision. */
export const CONSENT_VERSION = 'widget-2026-11';

export interface ConsentChoice {
  consent_data_use: boolean;
  consent_recording: boolean;
  consent_version: string;
}

/** Asks for data-use consent (required to go on) and recording consent (optional). */
export function consentView(copy: string | null, onDecide: (c: ConsentChoice) => void): Node[] {
  const dataId = uid('vb-consent-data');
  const recId = uid('vb-consent-rec');
  const data = h('input', { type: 'checkbox', id: dataId });
  const rec = h('input', { type: 'checkbox', id: recId });
  const go = h('button', { type: 'button', class: 'vb-primary', disabled: true }, 'Continue');
  data.addEventListener('change', () => (go.disabled = !data.checked));
  go.addEventListener('click', () => onDecide({ consent_data_use: data.checked, consent_recording: rec.checked, consent_version: CONSENT_VERSION }));
  return [
    h('p', {}, copy ?? 'Before we start: your answers help the team improve the product. They are stored securely and used only for research. While you show us a task, we also note what you click on this page.'),
    h('div', { class: 'vb-check' }, data, h('label', { for: dataId }, 'I agree that my answers may be used for research.')),
    h('div', { class: 'vb-check' }, rec, h('label', { for: recId }, 'You may also record my screen and voice (optional).')),
    go,
  ];
}
