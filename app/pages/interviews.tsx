import { gist } from '../interviews/gist.ts';
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { heldOn } from '../interviews/held.ts';
import { Link } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { ProjectNav } from '../project-nav.tsx';
import { AddInterviews } from '../interviews/add-interviews.tsx';
import { ProcessingBadge, STATE_LABEL } from '../interviews/processing.tsx';

const STATUSES = ['created', 'in_progress', 'completed', 'abandoned'] as const;
const STATUS_LABEL: Record<string, string> = { created: 'Created', in_progress: 'In progress', completed: 'Completed', abandoned: 'Abandoned' };
const PROCESSING = ['not_started', 'pending', 'processing', 'processed', 'failed'] as const;
type Status = (typeof STATUSES)[number];
type Processing = (typeof PROCESSING)[number];

/** A project's interviews: filters, a search over participants, adding by drop, and retrying. */
export function Interviews({ org, project }: { org: string; project: string }) {
  const path = { orgHandle: org, projectHandle: project };
  const [status, setStatus] = useState<Status | ''>('');
  const [processing, setProcessing] = useState<Processing | ''>('');
  const [study, setStudy] = useState('');
  const [search, setSearch] = useState('');
  const studies = useQuery({
    queryKey: ['studies', org, project],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/studies', { params: { path } })).studies,
  });
  const sessions = useQuery({
    queryKey: ['sessions', org, project, { status, processing, study }],
    queryFn: async () =>
      data(
        await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions', {
          params: { path, query: { limit: 200, status: status || undefined, processing_status: processing || undefined, study_ref: study || undefined } },
        }),
      ),
    // Poll only while something is still moving through processing.
    refetchInterval: (q) => (q.state.data?.sessions.some((s) => s.processing_status === 'pending' || s.processing_status === 'processing') ? 2000 : false),
  });
  const needle = search.trim().toLowerCase();
  const shown = (sessions.data?.sessions ?? []).filter((s) => !needle || (s.participant_name ?? 'anonymous').toLowerCase().includes(needle));

  return (
    <>
      <ProjectNav org={org} project={project} />
      <h1>Interviews</h1>
      <AddInterviews org={org} project={project} />
      <section aria-labelledby="list" className="stack iv-list">
        <h2 id="list">All interviews</h2>
        <form className="iv-filters" role="search" onSubmit={(e) => e.preventDefault()}>
          <label>
            <span>Search participants</span>
            <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          <label>
            <span>Status</span>
            <select value={status} onChange={(e) => setStatus(e.target.value as Status | '')}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Processing</span>
            <select value={processing} onChange={(e) => setProcessing(e.target.value as Processing | '')}>
              <option value="">Any</option>
              {PROCESSING.map((s) => (
                <option key={s} value={s}>
                  {STATE_LABEL[s]}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Study</span>
            <select value={study} onChange={(e) => setStudy(e.target.value)}>
              <option value="">Any</option>
              {(studies.data ?? []).map((s) => (
                <option key={s.ref} value={s.ref}>
                  {s.title}
                </option>
              ))}
            </select>
          </label>
        </form>
        <Problem error={sessions.error} />
        {sessions.isPending ? (
          <p className="muted" role="status">
            Loading…
          </p>
        ) : shown.length ? (
          <div className="iv-table">
            <table>
              <caption className="sr">Interviews, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Participant</th>
                  <th scope="col" className="iv-opt">Source</th>
                  <th scope="col" className="iv-opt">Status</th>
                  <th scope="col">Processing</th>
                  <th scope="col">Evidence</th>
                  <th scope="col">
                    <span className="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((s) => (
                  <tr key={s.id} data-session={s.id}>
                    <td>
                      <Link href={`/p/${org}/${project}/interviews/${s.id}`}>{s.participant_name ?? 'Anonymous'}</Link>
                      <div className="muted small">{heldOn(s)}</div>
                      {gist(s.summary) ? <div className="muted small iv-gist">{gist(s.summary)}</div> : null}
                    </td>
                    <td className="iv-opt">{s.source}</td>
                    <td className="iv-opt">{STATUS_LABEL[s.status] ?? s.status}</td>
                    <td>
                      <ProcessingBadge status={s.processing_status} step={s.processing_step} />
                    </td>
                    <td>{s.evidence_count}</td>
                    <td>
                      <RowAction org={org} project={project} id={s.id} status={s.processing_status} name={s.participant_name ?? 'Anonymous'} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">{sessions.data?.sessions.length ? 'No interview matches the search.' : 'No interviews match. Drop a transcript or a recording above to add one.'}</p>
        )}
      </section>
    </>
  );
}

/** Retry for a failed interview, reprocess for a processed one; progress then shows in the row's badge. */
export function RowAction({ org, project, id, status, name }: { org: string; project: string; id: string; status: string; name: string }) {
  const client = useQueryClient();
  const path = { orgHandle: org, projectHandle: project, sessionId: id };
  const run = useMutation({
    mutationFn: async () =>
      status === 'failed'
        ? data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}/retry-processing', { params: { path }, body: {} }))
        : data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}/reprocess', { params: { path }, body: {} })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['sessions', org, project] });
      await client.invalidateQueries({ queryKey: ['interview', org, project, id, 'processing'] });
    },
  });
  if (status !== 'failed' && status !== 'processed') return null;
  const label = status === 'failed' ? 'Retry' : 'Reprocess';
  return (
    <div className="stack">
      <button type="button" className="secondary" disabled={run.isPending} onClick={() => run.mutate()} aria-label={`${label} ${name}`}>
        {run.isPending ? `${label}ing…` : label}
      </button>
      <Problem error={run.error} />
    </div>
  );
}
