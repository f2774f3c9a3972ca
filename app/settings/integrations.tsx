import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { projectPath, when } from './paths.ts';

const STATUS: Record<string, string> = { not_configured: 'Not connected', incomplete: 'Connected, no target chosen yet', connected: 'Connected' };

/** Where findings and work go: GitHub (the code-host app) and Linear (the tracker). */
export function Integrations({ org, project }: { org: string; project: string }) {
  const path = projectPath(org, project);
  const list = useQuery({ queryKey: ['implementations', org, project], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/implementations', { params: { path } })).implementations });
  const tracker = useQuery({ queryKey: ['tracker-connection', org], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/tracker/connection', { params: { path: { orgHandle: org } } })) });
  // Both connections happen on the provider's site, which sends the person back to the API.
  const github = useMutation({
    mutationFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/codehost-app/install', { params: { path } })).install_url,
    onSuccess: (url) => window.location.assign(url),
  });
  const linear = useMutation({
    mutationFn: async () => data(await api.GET('/api/orgs/{orgHandle}/tracker/connect', { params: { path: { orgHandle: org } } })).authorize_url,
    onSuccess: (url) => window.location.assign(url),
  });
  const byId = new Map((list.data ?? []).map((i) => [i.id, i]));
  const gh = byId.get('codehost');
  const ln = byId.get('tracker');
  return (
    <section aria-labelledby="integrations" className="panel stack">
      <h2 id="integrations">Integrations</h2>
      <Problem error={list.error} />
      <ul className="cards">
        <li className="stack" data-provider="github">
          <h3>GitHub</h3>
          <p>
            {gh ? STATUS[gh.status] : 'Loading…'}
            {gh?.target ? ` to ${gh.target}` : ''}
            {gh && !gh.configured_on_server ? <span className="muted"> · not set up on this server</span> : null}
          </p>
          {gh ? <Deliveries d={gh.deliveries} last={gh.last_sync_at} /> : null}
          <button type="button" className="settings-fit" onClick={() => github.mutate()} disabled={github.isPending}>
            {gh?.status === 'not_configured' ? 'Connect GitHub' : 'Install on more repositories'}
          </button>
          <Problem error={github.error} />
        </li>
        <li className="stack" data-provider="linear">
          <h3>Linear</h3>
          <p>
            {ln ? STATUS[ln.status] : 'Loading…'}
            {tracker.data?.workspace_name ? ` to the ${tracker.data.workspace_name} workspace` : ''}
            {ln && !ln.configured_on_server ? <span className="muted"> · not set up on this server</span> : null}
          </p>
          {tracker.data?.connected ? <p className="muted small">Webhook: {tracker.data.webhook.status}{tracker.data.webhook.error ? ` (${tracker.data.webhook.error})` : ''}</p> : null}
          {ln ? <Deliveries d={ln.deliveries} last={ln.last_sync_at} /> : null}
          <button type="button" className="settings-fit" onClick={() => linear.mutate()} disabled={linear.isPending}>
            {tracker.data?.connected ? 'Reconnect Linear' : 'Connect Linear'}
          </button>
          <Problem error={linear.error ?? tracker.error} />
        </li>
      </ul>
    </section>
  );
}

function Deliveries({ d, last }: { d: { sent: number; retrying: number; failed: number }; last: string | null }) {
  if (!d.sent && !d.retrying && !d.failed) return null;
  return (
    <p className="muted small">
      {d.sent} sent, {d.retrying} retrying, {d.failed} failed · last sync {when(last)}
    </p>
  );
}
