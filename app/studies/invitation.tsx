import type { ReactNode } from 'react';
import { starterInvitation, type Invitation } from './draft.ts';

type Panel = NonNullable<Invitation['panel']>;

const ICONS = ['feedback', 'mic', 'diagram', 'bug', 'research'] as const;
const STYLES = ['calm', 'lattice', 'beam', 'ticket'] as const;
const SHAPES = ['capsule', 'rounded', 'square'] as const;
const CORNERS = ['bottom-right', 'bottom-left'] as const;
const MODES = [
  ['passive', 'Launcher'],
  ['contextual', 'Launcher with a teaser'],
  ['direct_link', 'Direct link only, no launcher'],
] as const;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="stack field">
      <span>{label}</span>
      {children}
    </label>
  );
}

function Choice<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: readonly T[] | ReadonlyArray<readonly [T, string]>; onChange: (v: T) => void }) {
  return (
    <Field label={label}>
      <select value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => {
          const [v, text] = typeof o === 'string' ? [o, o] : o;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </Field>
  );
}

/** How the widget invites people: launcher, panel, colours, corner and presentation mode. */
export function InvitationEditor({ invitation, invalid, onChange }: { invitation: Invitation | null; invalid: boolean; onChange: (i: Invitation | null) => void }) {
  if (!invitation) {
    return (
      <section aria-labelledby="invitation" className="panel stack">
        <h2 id="invitation">Invitation</h2>
        <p className="muted">No invitation: the widget uses its default launcher.</p>
        <button type="button" className="secondary add" onClick={() => onChange(structuredClone(starterInvitation))}>
          Add an invitation
        </button>
      </section>
    );
  }
  const inv = invitation;
  const launcher = (patch: Partial<Invitation['launcher']>) => onChange({ ...inv, launcher: { ...inv.launcher, ...patch } });
  const panel = (patch: Partial<Panel>) => {
    const next = { ...inv.panel, ...patch } as Panel;
    for (const k of ['headline', 'body', 'cta', 'eyebrow'] as const) if (next[k] === '') delete next[k];
    onChange({ ...inv, panel: Object.keys(next).length ? next : undefined });
  };
  return (
    <section aria-labelledby="invitation" className="panel stack">
      <div className="row spread">
        <h2 id="invitation">Invitation</h2>
        <button type="button" className="secondary" onClick={() => onChange(null)}>
          Remove invitation
        </button>
      </div>
      {invalid ? <p className="problem">The saved invitation is incomplete or invalid, so the widget cannot show this study. Check the fields below and save.</p> : null}
      <Choice label="Presentation mode" value={inv.presentation_mode} options={MODES} onChange={(presentation_mode) => onChange({ ...inv, presentation_mode })} />
      <fieldset className="grid2">
        <legend>Launcher</legend>
        <Field label="Launcher label">
          <input value={inv.launcher.label} maxLength={80} onChange={(e) => launcher({ label: e.target.value })} />
        </Field>
        <Choice label="Icon" value={inv.launcher.icon} options={ICONS} onChange={(icon) => launcher({ icon })} />
        <Choice label="Style" value={inv.launcher.style ?? 'calm'} options={STYLES} onChange={(style) => launcher({ style })} />
        <Choice label="Shape" value={inv.launcher.shape ?? 'capsule'} options={SHAPES} onChange={(shape) => launcher({ shape })} />
      </fieldset>
      <fieldset className="stack">
        <legend>Panel</legend>
        <Field label="Headline">
          <input value={inv.panel?.headline ?? ''} maxLength={120} onChange={(e) => panel({ headline: e.target.value })} />
        </Field>
        <Field label="Body">
          <textarea rows={3} value={inv.panel?.body ?? ''} maxLength={600} onChange={(e) => panel({ body: e.target.value })} />
        </Field>
        <Field label="Button text">
          <input value={inv.panel?.cta ?? ''} maxLength={80} onChange={(e) => panel({ cta: e.target.value })} />
        </Field>
      </fieldset>
      <fieldset className="grid2">
        <legend>Colours and corner</legend>
        <Field label="Brand colour">
          <input type="color" value={inv.brand_color.light.toLowerCase()} onChange={(e) => onChange({ ...inv, brand_color: { ...inv.brand_color, light: e.target.value } })} />
        </Field>
        <label className="stack field">
          <span>Brand colour in dark mode</span>
          <span className="row nowrap">
            <input
              type="checkbox"
              aria-label="Use a separate dark-mode colour"
              checked={!!inv.brand_color.dark}
              onChange={(e) => onChange({ ...inv, brand_color: e.target.checked ? { ...inv.brand_color, dark: inv.brand_color.light } : { light: inv.brand_color.light } })}
            />
            <input
              type="color"
              aria-label="Dark-mode brand colour"
              disabled={!inv.brand_color.dark}
              value={(inv.brand_color.dark ?? inv.brand_color.light).toLowerCase()}
              onChange={(e) => onChange({ ...inv, brand_color: { ...inv.brand_color, dark: e.target.value } })}
            />
          </span>
        </label>
        <Choice label="Corner on desktop" value={inv.placement.desktop} options={CORNERS} onChange={(desktop) => onChange({ ...inv, placement: { ...inv.placement, desktop } })} />
        <Choice label="Corner on phones" value={inv.placement.mobile} options={CORNERS} onChange={(mobile) => onChange({ ...inv, placement: { ...inv.placement, mobile } })} />
      </fieldset>
    </section>
  );
}
