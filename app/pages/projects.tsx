import { useState, type FormEvent } from 'react';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';

/** Every project the person can reach, by organization, and a form to create one. */
export function Projects() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const orgs = useQuery({ queryKey: ['orgs'], queryFn: async () => data(await api.GET('/api/orgs')).organizations });
  const lists = useQueries({
    queries: (orgs.data ?? []).map((org) => ({
      queryKey: ['projects', org.handle],
      queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects', { params: { path: { orgHandle: org.handle } } })).projects,
    })),
  });
  const [name, setName] = useState('');
  const [org, setOrg] = useState('');
  const create = useMutation({
    mutationFn: async () =>
      data(await api.POST('/api/orgs/{orgHandle}/projects', { params: { path: { orgHandle: org || orgs.data![0].handle } }, body: { name: name.trim() } })).project,
    onSuccess: (p) => {
      void client.invalidateQueries({ queryKey: ['projects'] });
      navigate(`/p/${p.org_handle}/${p.handle}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <h1>Projects</h1>
      <Problem error={orgs.error} />
      {(orgs.data ?? []).map((o, i) => (
        <section key={o.handle} aria-labelledby={`org-${o.handle}`}>
          <h2 id={`org-${o.handle}`}>{o.name}</h2>
          {lists[i]?.data?.length ? (
            <ul className="cards">
              {lists[i].data!.map((p) => (
                <li key={p.ref}>
                  <Link href={`/p/${o.handle}/${p.handle}`}>{p.name}</Link>
                  {p.description ? <p className="muted">{p.description}</p> : null}
                </li>
              ))}
            </ul>
          ) : lists[i]?.isPending ? (
            <p className="muted">Loading…</p>
          ) : (
            <p className="muted">No projects yet.</p>
          )}
        </section>
      ))}
      <form onSubmit={submit} className="stack panel" aria-labelledby="new-project">
        <h2 id="new-project">New project</h2>
        <label htmlFor="project-name">Name</label>
        <input id="project-name" required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
        {(orgs.data?.length ?? 0) > 1 ? (
          <>
            <label htmlFor="project-org">Organization</label>
            <select id="project-org" value={org} onChange={(e) => setOrg(e.target.value)}>
              {orgs.data!.map((o) => (
                <option key={o.handle} value={o.handle}>
                  {o.name}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <button type="submit" disabled={create.isPending || !orgs.data?.length}>
          {create.isPending ? 'Creating…' : 'Create project'}
        </button>
        <Problem error={create.error} />
      </form>
    </>
  );
}
