import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { projectPath } from './paths.ts';

/** The widget: the one tag to paste, a demo page, and a check of a page where it was pasted. */
export function WidgetInstall({ org, project }: { org: string; project: string }) {
  const path = projectPath(org, project);
  const setup = useQuery({ queryKey: ['widget-setup', org, project], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/widget-setup', { params: { path } })) });
  const [copied, setCopied] = useState<string>('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(setup.data!.snippet);
      setCopied('Copied');
    } catch {
      setCopied('Could not copy: select the snippet and copy it by hand');
    }
  };
  return (
    <section aria-labelledby="widget" className="panel stack settings">
      <h2 id="widget">The widget</h2>
      <Problem error={setup.error} />
      {setup.data ? (
        <>
          <p className="muted small">Paste this tag just before &lt;/body&gt; on every page where the widget may appear.</p>
          <pre className="snippet" tabIndex={0} aria-label="Embed snippet">
            <code>{setup.data.snippet}</code>
          </pre>
          <div className="row">
            <button type="button" onClick={copy}>
              Copy snippet
            </button>
            <span role="status" className="muted">
              {copied}
            </span>
            <a href={setup.data.demo_url} target="_blank" rel="noopener noreferrer">
              See it on a demo page
            </a>
          </div>
          <VerifyForm org={org} project={project} />
        </>
      ) : null}
    </section>
  );
}

function VerifyForm({ org, project }: { org: string; project: string }) {
  const [url, setUrl] = useState('');
  const verify = useMutation({
    mutationFn: async (u: string) => data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/widget-installation/verify', { params: { path: projectPath(org, project) }, body: { url: u } })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    verify.mutate(url.trim());
  };
  const r = verify.data;
  return (
    <form onSubmit={submit} className="stack" aria-labelledby="verify">
      <h3 id="verify">Check a page</h3>
      <label className="stack">
        <span>Page address</span>
        <input type="url" inputMode="url" required placeholder="https://www.example.com/pricing" value={url} onChange={(e) => setUrl(e.target.value)} />
      </label>
      <button type="submit" disabled={!url.trim() || verify.isPending} className="settings-fit">
        {verify.isPending ? 'Checking…' : 'Check installation'}
      </button>
      <Problem error={verify.error} />
      {r ? (
        <div role="status" className={`verdict ${r.installed ? 'good' : 'bad'}`} data-testid="verdict">
          <p>
            <strong>{r.installed ? 'The widget is installed correctly' : 'The widget is not installed correctly'}</strong> on {r.final_url ?? r.url}.
          </p>
          {r.problems.length || r.warnings.length ? (
            <ul>
              {[...r.problems, ...r.warnings].map((p) => (
                <li key={p.code}>
                  {p.message}. <span className="muted">{p.action}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
