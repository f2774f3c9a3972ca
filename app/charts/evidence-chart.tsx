import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { LineChart, type Series } from './line-chart.tsx';

const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#8c8c8c', '#1f77b4'];
const GROUPS = { type: 'type', surface: 'surface' } as const;
type Group = keyof typeof GROUPS;
const PAGE = 200;
const MAX_PAGES = 10;

const words = (s: string) => s.replace(/_/g, ' ');
/** The Monday (UTC) starting the week of a timestamp, in seconds. */
function weekOf(iso: string): number {
  const d = new Date(iso);
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.getTime() / 1000;
}
const weekLabel = (sec: number) => new Date(sec * 1000).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const tickLabel = (sec: number) => new Date(sec * 1000).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Evidence per week, by type or by surface: a uPlot chart, and the same numbers as a table. */
export function EvidenceChart({ org, project }: { org: string; project: string }) {
  const [group, setGroup] = useState<Group>('type');
  const name = useId();
  const cards = useQuery({
    queryKey: ['signals', org, project, 'chart'],
    queryFn: async () => {
      const all: Array<{ signal_type: string; target_surface: string; created_at: string }> = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        const r = data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/signals', { params: { path: { orgHandle: org, projectHandle: project }, query: { limit: PAGE, offset: page * PAGE } } }));
        all.push(...r.signals);
        if (all.length >= r.total || r.signals.length < PAGE) break;
      }
      return all;
    },
    refetchInterval: 10_000,
  });
  const chart = useMemo(() => {
    const rows = cards.data ?? [];
    const key = (s: (typeof rows)[number]) => (group === 'type' ? s.signal_type : s.target_surface);
    const weeks = [...new Set(rows.map((s) => weekOf(s.created_at)))].sort((a, b) => a - b);
    const names = [...new Set(rows.map(key))].sort();
    const counts = names.map((n) => weeks.map((w) => rows.filter((s) => key(s) === n && weekOf(s.created_at) === w).length));
    const series: Series[] = names.map((n, i) => ({ label: words(n), color: PALETTE[i % PALETTE.length], values: counts[i] }));
    return { weeks, series };
  }, [cards.data, group]);

  return (
    <section aria-labelledby="evidence-chart" className="stack evidence-chart">
      <div className="row spread">
        <h2 id="evidence-chart">Evidence over time</h2>
        <fieldset className="segmented">
          <legend className="sr">Group evidence by</legend>
          {(Object.keys(GROUPS) as Group[]).map((g) => (
            <label key={g}>
              <input type="radio" name={name} value={g} checked={group === g} onChange={() => setGroup(g)} /> By {GROUPS[g]}
            </label>
          ))}
        </fieldset>
      </div>
      <Problem error={cards.error} />
      {chart.weeks.length ? (
        <>
          <figure className="chart panel" aria-labelledby={`${name}-caption`}>
            <LineChart x={chart.weeks} series={chart.series} xLabel={tickLabel} />
            <figcaption id={`${name}-caption`} className="small">
              <span className="muted">Evidence cards per week, by {GROUPS[group]}:</span>
              <ul className="chart-legend">
                {chart.series.map((s) => (
                  <li key={s.label}>
                    <span className="swatch" style={{ background: s.color }} /> {s.label}
                  </li>
                ))}
              </ul>
            </figcaption>
          </figure>
          <details className="chart-table">
            <summary>The numbers, as a table</summary>
            <div className="scroll">
              <table>
                <caption className="sr">Evidence cards per week, by {GROUPS[group]}</caption>
                <thead>
                  <tr>
                    <th scope="col">Week of</th>
                    {chart.series.map((s) => (
                      <th scope="col" key={s.label}>
                        {s.label}
                      </th>
                    ))}
                    <th scope="col">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {chart.weeks.map((w, i) => (
                    <tr key={w}>
                      <th scope="row">{weekLabel(w)}</th>
                      {chart.series.map((s) => (
                        <td key={s.label}>{s.values[i]}</td>
                      ))}
                      <td>{chart.series.reduce((n, s) => n + s.values[i], 0)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      ) : cards.isPending ? (
        <p className="muted">Loading…</p>
      ) : (
        <p className="muted">No evidence yet.</p>
      )}
    </section>
  );
}
