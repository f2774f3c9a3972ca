import { useId } from 'react';
import { Problem } from '../shell.tsx';
import { NEXT, PRIORITIES, useUpdateFinding, type Finding } from './model.ts';

/** A finding's priority and its next research state; the API's refusal is shown in its own words. */
export function FindingControls({ org, project, finding }: { org: string; project: string; finding: Finding }) {
  const update = useUpdateFinding(org, project);
  const id = useId();
  const next = NEXT[finding.research_state];
  const closed = finding.research_state === 'closed';
  return (
    <div className="finding-controls">
      <div className="row">
        <label htmlFor={id} className="sr">
          Priority of {finding.title}
        </label>
        <select
          id={id}
          value={finding.priority_label}
          disabled={closed || update.isPending}
          onChange={(e) => {
            const score = PRIORITIES.find(([label]) => label === e.target.value)![2];
            update.mutate({ ref: finding.finding_ref, body: { priority_score: score } });
          }}
        >
          {PRIORITIES.map(([value, label]) => (
            <option key={value} value={value}>
              {label} priority
            </option>
          ))}
        </select>
        {next ? (
          <button
            type="button"
            className="secondary"
            aria-label={`${next.label}: ${finding.title}`}
            disabled={update.isPending}
            onClick={() => update.mutate({ ref: finding.finding_ref, body: { research_state: next.to } })}
          >
            {next.label}
          </button>
        ) : null}
      </div>
      <Problem error={update.error} />
    </div>
  );
}
