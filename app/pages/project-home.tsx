import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { ProjectNav } from '../project-nav.tsx';
import { EvidenceChart } from '../charts/evidence-chart.tsx';

const STATES = ['pending', 'processing', 'processed', 'failed', 'not_started', 'abandoned'] as const;
const STATE_LABEL: Record<string, string> = { pending: 'Queued', processing: 'Processing', processed: 'Processed', failed: 'Failed', not_started: 'Not started', abandoned: 'Left without answering' };
/** An interview the participant left before saying anything has nothing to process: it is not waiting to start. */
const stateOf = (s: { status: string; processing_status: string }) => (s.status === 'abandoned' && s.processing_status === 'not_started' ? 'abandoned' : s.processing_status);

/** A project's home: interviews by processing state (kept live), evidence to review, the top findings. */
export function ProjectHome({ org, project }: { org: string; project: string }) {
  const path = { orgHandle: org, projectHandle: project };
  const [, navigate] = useLocation();
  const info = useQuery({ queryKey: ['project', org, project], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}', { params: { path } })).project });
  const siblings = useQuery({ queryKey: ['projects', org], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects', { params: { path: { orgHandle: org } } })).projects });
  const sessions = useQuery({
    queryKey: ['sessions', org, project],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions', { params: { path, query: { limit: 200 } } })),
    // Interviews move through processing on their own: keep the list current.
    refetchInterval: 3000,
  });
  const evidence = useQuery({
    queryKey: ['signals', org, project, 'home'],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/signals', { params: { path, query: { limit: 50 } } })),
    refetchInterval: 5000,
  });
  const findings = useQuery({
    queryKey: ['findings', org, project, 'top'],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/findings', { params: { path, query: { limit: 5 } } })),
  });
  const byState = new Map<string, number>();
  for (const s of sessions.data?.sessions ?? []) byState.set(stateOf(s), (byState.get(stateOf(s)) ?? 0) + 1);
  const toReview = (evidence.data?.signals ?? []).filter((s) => !s.review_status);

  return (
    <>
      <ProjectNav org={org} project={project} />
      <div className="row spread">
        <h1>{info.data?.name ?? project}</h1>
        {siblings.data && siblings.data.length > 1 ? (
          <label className="row">
            <span className="muted">Project</span>
            <select value={project} onChange={(e) => navigate(`/p/${org}/${e.target.value}`)}>
              {siblings.data.map((p) => (
                <option key={p.ref} value={p.handle}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <Problem error={info.error ?? sessions.error} />
      <section aria-labelledby="interviews">
        <h2 id="interviews">Interviews</h2>
        <ul className="tiles" aria-label="Interviews by processing state">
          {STATES.map((s) => (
            <li key={s} data-state={s}>
              <strong>{byState.get(s) ?? 0}</strong> {STATE_LABEL[s]}
            </li>
          ))}
        </ul>
        {sessions.data?.sessions.length ? (
          <table>
            <caption className="sr">Latest interviews</caption>
            <thead>
              <tr>
                <th scope="col">Participant</th>
                <th scope="col">Mode</th>
                <th scope="col">Processing</th>
                <th scope="col">Evidence</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.sessions.slice(0, 10).map((s) => (
                <tr key={s.id} data-session={s.id}>
                  <td>
                    <Link href={`/p/${org}/${project}/interviews/${s.id}`}>{s.participant_name ?? 'Anonymous'}</Link>
                  </td>
                  <td>{s.interview_mode ?? '—'}</td>
                  <td>
                    <span className={`badge ${stateOf(s)}`}>{STATE_LABEL[stateOf(s)] ?? s.processing_status}</span>
                  </td>
                  <td>{s.evidence_count ?? 0}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <div className="stack">
            <p className="muted">No interviews yet. To start:</p>
            <ul>
              <li>
                <Link href={`/p/${org}/${project}/interviews`}>Import a transcript or upload a recording</Link>
              </li>
              <li>
                <Link href={`/p/${org}/${project}/settings#widget`}>Put the widget on your site</Link>, so visitors can take the starter study's interview
              </li>
              <li>
                <Link href={`/p/${org}/${project}/studies`}>Write a study of your own</Link>
              </li>
            </ul>
          </div>
        )}
      </section>
      <section aria-labelledby="review">
        <h2 id="review">Evidence waiting for review</h2>
        {toReview.length ? (
          <ul className="cards">
            {toReview.slice(0, 5).map((s) => (
              <li key={s.id}>
                <strong>{s.headline ?? s.signal_type}</strong>
                <blockquote>{s.quote}</blockquote>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Nothing waiting.</p>
        )}
      </section>
      <EvidenceChart org={org} project={project} />
      <section aria-labelledby="findings">
        <h2 id="findings">Top findings</h2>
        {findings.data?.findings.length ? (
          <ol className="cards">
            {findings.data.findings.map((f) => (
              <li key={f.finding_ref}>
                <strong>{f.title}</strong> <span className="muted">{f.priority_label} · {f.evidence_count} evidence</span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">No findings yet.</p>
        )}
      </section>
      <p>
        <Link href="/projects">All projects</Link>
      </p>
    </>
  );
}
