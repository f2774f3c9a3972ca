import { useQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, data, ApiError } from '../api.ts';
import { Problem } from '../shell.tsx';
import { DELIVERY_LABEL, findingsKey, path, type Finding } from './model.ts';

const PROVIDERS = [
  ['github', 'GitHub'],
  ['linear', 'Linear'],
] as const;
/** Refusals that the project's or the server's integration settings put right. */
const SETUP = new Set(['codehost_unconfigured', 'codehost_not_configured', 'tracker_unconfigured', 'tracker_not_configured', 'tracker_not_connected']);
const STATUS_LABEL: Record<string, string> = { pending: 'Queued', sending: 'Sending', retrying: 'Retrying (the provider was busy)', sent: 'Sent', failed: 'Failed' };

/** Where a finding stands with the code host and tracker, and sending it there. */
export function FindingDelivery({ org, project, finding }: { org: string; project: string; finding: Finding }) {
  const client = useQueryClient();
  const p = path(org, project);
  const key = [...findingsKey(org, project), finding.finding_ref, 'delivery'];
  // A sent finding's issues hang off the work item made for it on first send.
  const deliveries = useQuery({
    queryKey: key,
    queryFn: async () => {
      const { tasks } = data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/tasks', { params: { path: p, query: { limit: 200 } } }));
      const task = tasks.find((t) => t.finding_ref === finding.finding_ref);
      if (!task) return [];
      return data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/tasks/{taskId}/provider-state', { params: { path: { ...p, taskId: task.id } } })).deliveries;
    },
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'retrying' || d.status === 'sending' || d.status === 'pending') ? 3000 : false),
  });
  const send = useMutation({
    mutationFn: async (provider: 'github' | 'linear') =>
      data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/findings/{findingRef}/send', { params: { path: { ...p, findingRef: finding.finding_ref } }, body: { provider } })),
    onSettled: () => client.invalidateQueries({ queryKey: findingsKey(org, project) }),
  });
  const reviewed = finding.research_state === 'reviewed';
  return (
    <section aria-labelledby="delivery" className="panel stack">
      <h2 id="delivery">Delivery</h2>
      <p>
        State: <strong data-delivery-state={finding.delivery_state ?? 'not_sent'}>{DELIVERY_LABEL[finding.delivery_state ?? 'not_sent']}</strong>
        {finding.provider_placement ? <span className="muted"> · placed in {finding.provider_placement === 'triage' ? 'triage' : 'the backlog (the team has no triage)'}</span> : null}
      </p>
      {deliveries.data?.length ? (
        <ul className="cards" aria-label="Issues">
          {deliveries.data.map((d) => (
            <li key={d.provider} data-provider={d.provider}>
              <strong>{d.provider === 'github' ? 'GitHub' : 'Linear'}</strong>
              {d.target ? <span className="muted"> · {d.target}</span> : null} · <span>{STATUS_LABEL[d.status] ?? d.status}</span>
              {d.issue_url ? (
                <>
                  {' · '}
                  <a href={d.issue_url} target="_blank" rel="noreferrer">
                    {d.issue_number ? `Issue #${d.issue_number}` : 'The issue'}
                  </a>
                  {d.issue_state ? <span className="muted"> ({d.issue_state})</span> : null}
                </>
              ) : null}
              {d.last_error ? <p className="muted small">Last error: {d.last_error}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <Problem error={deliveries.error} />
      {reviewed ? (
        <div className="row">
          {PROVIDERS.filter(([provider]) => !deliveries.data?.some((d) => d.provider === provider && d.status === 'sent')).map(([provider, label]) => (
            <button key={provider} type="button" disabled={send.isPending} onClick={() => send.mutate(provider)}>
              Send to {label}
            </button>
          ))}
        </div>
      ) : (
        <p className="muted">{finding.research_state === 'draft' ? 'Review the finding before sending it.' : 'Closed findings are not sent.'}</p>
      )}
      {send.isPending ? <p role="status">Sending…</p> : null}
      <Problem error={send.error} />
      {send.error instanceof ApiError && SETUP.has(send.error.code ?? '') ? <Link href={`/p/${org}/${project}/settings#integrations`}>Open the project's integration settings</Link> : null}
    </section>
  );
}
