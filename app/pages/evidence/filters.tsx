import { gist } from '../../interviews/gist.ts';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'wouter';
import { heldOn } from '../../interviews/held.ts';
import { SURFACES, TYPES, surfaceLabel, typeLabel, typeMeaning } from './labels.ts';
import type { Filters as F } from './queries.ts';

/** The queue's filters and search, kept in the URL's query so a view can be shared or reloaded. */
export function Filters({ filters, interviews, onLeave }: { filters: F; interviews: Array<{ id: string; participant_name: string | null; created_at: string; started_at?: string | null; source?: string | null; summary: string | null }>; onLeave: () => void }) {
  const [, setParams] = useSearchParams();
  const [q, setQ] = useState(filters.q ?? '');
  const set = (key: string, value: string | undefined) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  // Search as the researcher types, once they pause.
  useEffect(() => {
    const t = setTimeout(() => {
      if (q.trim() !== (filters.q ?? '')) set('q', q.trim() || undefined);
    }, 300);
    return () => clearTimeout(t);
  }, [q]);
  // The URL changed on its own (back, a link): the field follows.
  useEffect(() => setQ(filters.q ?? ''), [filters.q]);

  // Enter searches and Escape clears; either way the keys go back to the cards (j, k, r…), not into the field.
  const leaveSearch = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' && e.key !== 'Escape') return;
    e.preventDefault();
    const next = e.key === 'Escape' ? '' : q.trim();
    setQ(next);
    set('q', next || undefined);
    e.currentTarget.blur();
    onLeave();
  };

  return (
    <form role="search" aria-label="Filter evidence" className="review-filters" onSubmit={(e) => (e.preventDefault(), set('q', q.trim() || undefined))}>
      <div className="review-field review-search">
        <label htmlFor="review-search">Search</label>
        <input id="review-search" type="search" aria-keyshortcuts="/" value={q} onChange={(e) => setQ(e.target.value)} onKeyDown={leaveSearch} placeholder="Quote, headline, claim, screen text…" />
      </div>
      <div className="review-field">
        <label htmlFor="review-type">Type</label>
        <select id="review-type" value={filters.type ?? ''} onChange={(e) => set('type', e.target.value)}>
          <option value="">All types</option>
          {TYPES.map((t) => (
            <option key={t} value={t} title={typeMeaning(t)}>
              {typeLabel(t)}
            </option>
          ))}
        </select>
      </div>
      <div className="review-field">
        <label htmlFor="review-surface">Surface</label>
        <select id="review-surface" value={filters.surface ?? ''} onChange={(e) => set('surface', e.target.value)}>
          <option value="">All surfaces</option>
          {SURFACES.map((s) => (
            <option key={s} value={s}>
              {surfaceLabel(s)}
            </option>
          ))}
        </select>
      </div>
      <div className="review-field">
        <label htmlFor="review-interview">Interview</label>
        <select id="review-interview" value={filters.interview ?? ''} onChange={(e) => set('interview', e.target.value)}>
          <option value="">All interviews</option>
          {interviews.map((s) => (
            <option key={s.id} value={s.id}>
              {s.participant_name ?? 'Anonymous'} · {heldOn(s, 'short')}
              {gist(s.summary) ? ` · ${gist(s.summary)}` : ''}
            </option>
          ))}
        </select>
      </div>
      <label className="row review-check">
        <input type="checkbox" checked={filters.dismissed} onChange={(e) => set('dismissed', e.target.checked ? '1' : undefined)} />
        <span>Dismissed cards</span>
      </label>
    </form>
  );
}
