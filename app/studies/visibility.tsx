import type { Draft, Rule, Where } from './draft.ts';

const WHERE: Array<[Where, string]> = [
  ['everywhere', 'On every page (below studies that target pages)'],
  ['targeted', 'Only on the pages the rules name'],
  ['nowhere', 'On no page: direct link only'],
];

type Patch = (p: Partial<Draft>) => void;

/** Which pages the study is offered on, and which websites may run it. */
export function VisibilityEditor({ draft, onChange }: { draft: Draft; onChange: Patch }) {
  const setRule = (i: number, patch: Partial<Rule>) => onChange({ rules: draft.rules.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  return (
    <section aria-labelledby="visibility" className="panel stack">
      <h2 id="visibility">Where it appears</h2>
      <fieldset className="stack">
        <legend className="sr">Pages</legend>
        {WHERE.map(([w, label]) => (
          <label key={w} className="row nowrap">
            <input type="radio" name="where" value={w} checked={draft.where === w} onChange={() => onChange({ where: w })} />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      {draft.where === 'targeted' ? (
        <>
          <ol className="rules stack">
            {draft.rules.map((r, i) => (
              <li key={i} className="row rule" aria-label={`Rule ${i + 1}`}>
                <select aria-label={`Rule ${i + 1} effect`} value={r.effect} onChange={(e) => setRule(i, { effect: e.target.value as Rule['effect'] })}>
                  <option value="include">Include</option>
                  <option value="exclude">Exclude</option>
                </select>
                <select aria-label={`Rule ${i + 1} match`} value={r.match} onChange={(e) => setRule(i, { match: e.target.value as Rule['match'] })}>
                  <option value="exact">exactly</option>
                  <option value="subtree">and pages below</option>
                </select>
                <input aria-label={`Rule ${i + 1} pathname`} value={r.pathname} placeholder="/checkout" onChange={(e) => setRule(i, { pathname: e.target.value })} />
                <button type="button" className="secondary" aria-label={`Remove rule ${i + 1}`} onClick={() => onChange({ rules: draft.rules.filter((_, j) => j !== i) })}>
                  Remove
                </button>
              </li>
            ))}
          </ol>
          <div className="row">
            <button type="button" className="secondary" onClick={() => onChange({ rules: [...draft.rules, { effect: 'include', match: 'exact', pathname: '/' }] })}>
              Add a rule
            </button>
            <label className="row nowrap">
              <span>Priority</span>
              <input type="number" className="narrow" value={draft.priority} onChange={(e) => onChange({ priority: Number(e.target.value) || 0 })} />
            </label>
          </div>
          <p className="muted small">Exclude beats include; an exact page beats a page below a path; then the higher priority wins.</p>
        </>
      ) : null}
      <h3 id="origins">Allowed websites</h3>
      <p className="muted small">Origins such as https://app.example.com. With none, the widget runs this study on any site that has the project's key.</p>
      <ul className="stack rules" aria-labelledby="origins">
        {draft.origins.map((o, i) => (
          <li key={i} className="row nowrap">
            <input aria-label={`Allowed origin ${i + 1}`} value={o} placeholder="https://app.example.com" onChange={(e) => onChange({ origins: draft.origins.map((x, j) => (j === i ? e.target.value : x)) })} />
            <button type="button" className="secondary" aria-label={`Remove origin ${i + 1}`} onClick={() => onChange({ origins: draft.origins.filter((_, j) => j !== i) })}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="secondary add" onClick={() => onChange({ origins: [...draft.origins, ''] })}>
        Add an origin
      </button>
    </section>
  );
}
