import { useState } from 'react';
import type { paths } from '../api-types.ts';
import { when } from './paths.ts';

export type Implementation = paths['/api/orgs/{orgHandle}/projects/{projectHandle}/implementations']['get']['responses'][200]['content']['application/json']['implementations'][number];

export const STATUS: Record<string, string> = { not_configured: 'Not connected', incomplete: 'Connected, nothing chosen yet', connected: 'Connected' };

/** A select of targets (repository, team) and a button that makes the chosen one current. */
export function Choose(props: { label: string; action: string; options: Array<{ value: string; label: string; selected: boolean }>; pending: boolean; onChoose: (v: string) => void }) {
  const current = props.options.find((o) => o.selected)?.value ?? '';
  const [value, setValue] = useState(current);
  return (
    <div className="row">
      <label className="row">
        <span>{props.label}</span>
        <select value={value} onChange={(e) => setValue(e.target.value)}>
          {current ? null : <option value="">Choose…</option>}
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <button type="button" disabled={!value || value === current || props.pending} onClick={() => props.onChoose(value)}>
        {props.action}
      </button>
    </div>
  );
}

export function Deliveries({ d, last }: { d: { sent: number; retrying: number; failed: number }; last: string | null }) {
  if (!d.sent && !d.retrying && !d.failed) return null;
  return (
    <p className="muted small">
      {d.sent} sent, {d.retrying} retrying, {d.failed} failed · last sync {when(last)}
    </p>
  );
}
