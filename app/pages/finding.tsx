import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { ProjectNav } from '../project-nav.tsx';
import { FindingControls } from '../findings/controls.tsx';
import { FindingSummary } from '../findings/summary.tsx';
import { FindingDelivery } from '../findings/delivery.tsx';
import { AddEvidence } from '../findings/add-evidence.tsx';
import { FindingText } from '../findings/edit.tsx';
import { clock, surfaceLabel, typeLabel } from './evidence/labels.ts';
import { useInterviews } from './evidence/queries.ts';
import { STATE_LABEL, findingsKey, path, useUpdateFinding } from '../findings/model.ts';

/** One finding: its claim, the evidence behind it, and its delivery to GitHub or Linear. */
export function FindingDetail({ org, project, findingRef: ref }: { org: string; project: string; findingRef: string }) {
  const found = useQuery({
    queryKey: [...findingsKey(org, project), ref],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/findings/{findingRef}', { params: { path: { ...path(org, project), findingRef: ref } } })),
  });
  const update = useUpdateFinding(org, project);
  const interviews = useInterviews(org, project);
  const names = new Map((interviews.data ?? []).map((x) => [x.id, x.participant_name ?? 'Anonymous']));
  const f = found.data?.finding;
  return (
    <>
      <ProjectNav org={org} project={project} />
      <p>
        <Link href={`/p/${org}/${project}/findings`}>← All findings</Link>
      </p>
      <Problem error={found.error} />
      {f ? (
        <>
          <div className="finding-head">
            <FindingText key={f.updated_at} org={org} project={project} finding={f} />
            <p className="muted">
              {STATE_LABEL[f.research_state]} · {surfaceLabel(f.target_surface)}
            </p>
            <FindingSummary finding={f} badge={false} />
            <FindingControls org={org} project={project} finding={f} />
          </div>
          <section aria-labelledby="evidence" className="stack">
            <h2 id="evidence">Evidence</h2>
            {found.data!.evidence.length ? (
              <ul className="cards">
                {found.data!.evidence.map((s) => (
                  <li key={s.id}>
                    <div className="row spread">
                      <strong>{s.headline ?? typeLabel(s.signal_type)}</strong>
                      {f.research_state !== 'closed' ? (
                        <button type="button" className="link" disabled={update.isPending} onClick={() => update.mutate({ ref, body: { remove_evidence: [s.id] } })} aria-label={`Remove from the finding: ${s.headline ?? s.quote.slice(0, 60)}`}>
                          Remove
                        </button>
                      ) : null}
                    </div>
                    <blockquote>{s.quote}</blockquote>
                    <p className="muted small">
                      {typeLabel(s.signal_type)} · {names.get(s.session_id) ?? 'Anonymous'} ·{' '}
                      <Link href={`/p/${org}/${project}/interviews/${s.session_id}${s.timestamp_ms != null ? `?t=${s.timestamp_ms}` : ''}`}>
                        {s.timestamp_ms != null ? `Open the interview at ${clock(s.timestamp_ms)}` : 'Open the interview'}
                      </Link>
                    </p>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No evidence yet: a finding needs evidence before it can be reviewed.</p>
            )}
            <Problem error={update.error} />
            {f.research_state !== 'closed' ? <AddEvidence org={org} project={project} findingRef={ref} attached={new Set(found.data!.evidence.map((s) => s.id))} /> : null}
          </section>
          <FindingDelivery org={org} project={project} finding={f} />
        </>
      ) : found.isPending ? (
        <p className="muted">Loading…</p>
      ) : null}
    </>
  );
}
