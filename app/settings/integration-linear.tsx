import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { projectPath } from './paths.ts';
import { Choose, Deliveries, STATUS, type Implementation } from './integration-parts.tsx';

/** Linear: connect the organization's workspace, then pick the team this project's work goes to. */
export function LinearIntegration({ org, project, impl }: { org: string; project: string; impl: Implementation | undefined }) {
  const path = projectPath(org, project);
  const client = useQueryClient();
  const connection = useQuery({ queryKey: ['tracker-connection', org], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/tracker/connection', { params: { path: { orgHandle: org } } })) });
  const connected = !!connection.data?.connected;
  const teams = useQuery({
    queryKey: ['tracker-teams', org, project],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/tracker/teams', { params: { path } })).teams,
    enabled: connected,
  });
  // The connection is made on Linear's site, which sends the person back to the API.
  const connect = useMutation({
    mutationFn: async () => data(await api.GET('/api/orgs/{orgHandle}/tracker/connect', { params: { path: { orgHandle: org } } })).authorize_url,
    onSuccess: (url) => window.location.assign(url),
  });
  const pickTeam = useMutation({
    mutationFn: async (team_id: string) => data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/tracker/select-team', { params: { path }, body: { team_id } })),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: ['implementations', org, project] }), client.invalidateQueries({ queryKey: ['tracker-teams', org, project] })]),
  });
  const team = teams.data?.find((t) => t.selected);
  const hook = connection.data?.webhook;
  return (
    <li className="stack" data-provider="linear">
      <h3>Linear</h3>
      <p data-testid="linear-status">
        {impl ? STATUS[impl.status] : 'Loading…'}
        {connection.data?.workspace_name ? ` to the ${connection.data.workspace_name} workspace` : ''}
        {team ? `, team ${team.name}` : ''}
        {impl && !impl.configured_on_server ? <span className="muted"> · not set up on this server</span> : null}
      </p>
      {connected && hook ? (
        <p className="muted small">
          Webhook {hook.status}
          {hook.error ? `: ${hook.error}` : ''}
        </p>
      ) : null}
      {impl ? <Deliveries d={impl.deliveries} last={impl.last_sync_at} /> : null}
      {teams.data ? (
        <Choose
          label="Team"
          action="Use this team"
          options={teams.data.map((t) => ({ value: t.id, label: `${t.name} (${t.key})${t.triage_enabled ? ', triage' : ''}`, selected: t.selected }))}
          pending={pickTeam.isPending}
          onChoose={(v) => pickTeam.mutate(v)}
        />
      ) : null}
      <button type="button" className={connected ? 'secondary settings-fit' : 'settings-fit'} onClick={() => connect.mutate()} disabled={connect.isPending}>
        {connected ? 'Reconnect Linear' : 'Connect Linear'}
      </button>
      <Problem error={connect.error ?? pickTeam.error ?? connection.error ?? teams.error} />
    </li>
  );
}
