import { useQuery } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { projectPath } from './paths.ts';
import { GithubIntegration } from './integration-github.tsx';
import { LinearIntegration } from './integration-linear.tsx';

/** Where findings and work go: GitHub (the code-host app) and Linear (the tracker). */
export function Integrations({ org, project }: { org: string; project: string }) {
  const list = useQuery({
    queryKey: ['implementations', org, project],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/implementations', { params: { path: projectPath(org, project) } })).implementations,
  });
  const byId = new Map((list.data ?? []).map((i) => [i.id, i]));
  return (
    <section aria-labelledby="integrations" className="panel stack settings">
      <h2 id="integrations">Integrations</h2>
      <Problem error={list.error} />
      <ul className="cards">
        <GithubIntegration org={org} project={project} impl={byId.get('codehost')} />
        <LinearIntegration org={org} project={project} impl={byId.get('tracker')} />
      </ul>
    </section>
  );
}
