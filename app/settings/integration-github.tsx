import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { projectPath } from './paths.ts';
import { Choose, Deliveries, STATUS, type Implementation } from './integration-parts.tsx';

/** GitHub: install the code-host app, attach one of the organization's installations, pick the repository. */
export function GithubIntegration({ org, project, impl }: { org: string; project: string; impl: Implementation | undefined }) {
  const path = projectPath(org, project);
  const client = useQueryClient();
  const installations = useQuery({
    queryKey: ['codehost-installations', org, project],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/codehost-app/installations', { params: { path } })).installations,
    enabled: !!impl?.configured_on_server,
  });
  const attached = installations.data?.find((i) => i.attached);
  const repos = useQuery({
    queryKey: ['codehost-repos', org, project, attached?.installation_id],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/codehost-app/repos', { params: { path } })).repos,
    enabled: !!attached,
  });
  // The install happens on GitHub, which sends the person back to the API.
  const install = useMutation({
    mutationFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/codehost-app/install', { params: { path } })).install_url,
    onSuccess: (url) => window.location.assign(url),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['implementations', org, project] }).then(() => client.invalidateQueries({ queryKey: ['codehost-installations', org, project] }));
  const attach = useMutation({
    mutationFn: async (installation_id: string) => data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/codehost-app/select-installation', { params: { path }, body: { installation_id } })),
    onSuccess: refresh,
  });
  const pickRepo = useMutation({
    mutationFn: async (repo: string) => data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/codehost-app/select-repo', { params: { path }, body: { repo } })),
    onSuccess: () => Promise.all([refresh(), client.invalidateQueries({ queryKey: ['codehost-repos', org, project] })]),
  });
  const [installation, setInstallation] = useState('');
  return (
    <li className="stack" data-provider="github">
      <h3>GitHub</h3>
      <p data-testid="github-status">
        {impl ? STATUS[impl.status] : 'Loading…'}
        {impl?.target ? ` to ${impl.target}` : ''}
        {impl && !impl.configured_on_server ? <span className="muted"> · not set up on this server</span> : null}
      </p>
      {impl ? <Deliveries d={impl.deliveries} last={impl.last_sync_at} /> : null}
      {installations.data?.length && !attached ? (
        <div className="row">
          <label className="row">
            <span>Installation</span>
            <select value={installation} onChange={(e) => setInstallation(e.target.value)}>
              <option value="">Choose…</option>
              {installations.data.map((i) => (
                <option key={i.installation_id} value={i.installation_id}>
                  {i.account_login ?? i.installation_id}
                </option>
              ))}
            </select>
          </label>
          <button type="button" disabled={!installation || attach.isPending} onClick={() => attach.mutate(installation)}>
            Attach
          </button>
        </div>
      ) : null}
      {repos.data ? (
        <Choose
          label="Repository"
          action="Use this repository"
          options={repos.data.map((r) => ({ value: r.full_name, label: `${r.full_name}${r.private ? ' (private)' : ''}`, selected: r.selected }))}
          pending={pickRepo.isPending}
          onChoose={(v) => pickRepo.mutate(v)}
        />
      ) : null}
      <button type="button" className={attached ? 'secondary settings-fit' : 'settings-fit'} onClick={() => install.mutate()} disabled={install.isPending}>
        {attached ? 'Install on more repositories' : 'Connect GitHub'}
      </button>
      <Problem error={install.error ?? attach.error ?? pickRepo.error ?? installations.error ?? repos.error} />
    </li>
  );
}
