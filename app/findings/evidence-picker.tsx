import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { path } from './model.ts';

/** The project's evidence as checkboxes, searchable; the selection survives a new search. */
export function EvidencePicker({ org, project, selected, onChange }: { org: string; project: string; selected: Set<string>; onChange: (next: Set<string>) => void }) {
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search.trim());
  const cards = useQuery({
    queryKey: ['signals', org, project, 'picker', query],
    queryFn: async () =>
      data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/signals', { params: { path: path(org, project), query: { limit: 100, ...(query ? { search: query } : {}) } } })),
  });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  return (
    <fieldset className="picker">
      <legend>Evidence</legend>
      <label className="stack">
        <span>Search evidence</span>
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      <p className="muted small" role="status">
        {selected.size} selected{cards.data ? ` · ${cards.data.total} ${query ? 'matching' : 'in the project'}` : ''}
      </p>
      <Problem error={cards.error} />
      {cards.data?.signals.length ? (
        <ul className="picker-list">
          {cards.data.signals.map((s) => (
            <li key={s.id}>
              <label>
                <input type="checkbox" checked={selected.has(s.id)} onChange={(e) => toggle(s.id, e.target.checked)} />
                <span>
                  <strong>{s.headline ?? s.signal_type.replace(/_/g, ' ')}</strong>
                  <q>{s.quote}</q>
                </span>
              </label>
            </li>
          ))}
        </ul>
      ) : cards.isPending ? (
        <p className="muted">Loading evidence…</p>
      ) : (
        <p className="muted">{query ? 'No evidence matches.' : 'No evidence yet.'}</p>
      )}
    </fieldset>
  );
}
