import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { ProjectNav } from '../project-nav.tsx';
import { FindingControls } from '../findings/controls.tsx';
import { FindingSummary } from '../findings/summary.tsx';
import { NewFinding } from '../findings/new-finding.tsx';
import { STATES, STATE_LABEL, findingsKey, path } from '../findings/model.ts';

/** A project's findings as a board by research state (a list at phone width), and writing a new one. */
export function Findings({ org, project }: { org: string; project: string }) {
  const [writing, setWriting] = useState(false);
  const findings = useQuery({
    queryKey: [...findingsKey(org, project), 'board'],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/findings', { params: { path: path(org, project), query: { limit: 200 } } })),
  });
  const all = findings.data?.findings ?? [];
  return (
    <>
      <ProjectNav org={org} project={project} />
      <div className="row spread">
        <h1>Findings</h1>
        {!writing ? (
          <button type="button" onClick={() => setWriting(true)}>
            New finding
          </button>
        ) : null}
      </div>
      {writing ? <NewFinding org={org} project={project} onDone={() => setWriting(false)} /> : null}
      <Problem error={findings.error} />
      {findings.isPending ? <p className="muted">Loading…</p> : null}
      <div className="board">
        {STATES.map((state) => {
          const here = all.filter((f) => f.research_state === state);
          return (
            <section key={state} className="board-column" aria-labelledby={`col-${state}`} data-state={state}>
              <h2 id={`col-${state}`}>
                {STATE_LABEL[state]} <span className="muted">({here.length})</span>
              </h2>
              {here.length ? (
                <ol className="cards">
                  {here.map((f) => (
                    <li key={f.finding_ref} data-finding={f.finding_ref}>
                      <h3>
                        <Link href={`/p/${org}/${project}/findings/${f.finding_ref}`}>{f.title}</Link>
                      </h3>
                      <FindingSummary finding={f} />
                      <FindingControls org={org} project={project} finding={f} />
                    </li>
                  ))}
                </ol>
              ) : (
                <p className="muted small">None.</p>
              )}
            </section>
          );
        })}
      </div>
    </>
  );
}
