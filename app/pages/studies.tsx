import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { ProjectNav } from '../project-nav.tsx';
import { MODE_LABEL, starterGoals, starterInvitation, starterScript } from '../studies/draft.ts';

export const studiesKey = (org: string, project: string) => ['studies', org, project];

export function useStudies(org: string, project: string) {
  return useQuery({
    queryKey: studiesKey(org, project),
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/studies', { params: { path: { orgHandle: org, projectHandle: project } } })).studies,
  });
}

/** A project's studies, and a new one from a title (the starter study as its template). */
export function Studies({ org, project }: { org: string; project: string }) {
  const studies = useStudies(org, project);
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [title, setTitle] = useState('');
  const create = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/studies', {
          params: { path: { orgHandle: org, projectHandle: project } },
          body: { title, goals: starterGoals, script: starterScript, invitation: starterInvitation },
        }),
      ).study,
    onSuccess: (study) => {
      void client.invalidateQueries({ queryKey: studiesKey(org, project) });
      navigate(`/p/${org}/${project}/studies/${study.ref}`);
    },
  });
  return (
    <>
      <ProjectNav org={org} project={project} />
      <h1>Studies</h1>
      <Problem error={studies.error} />
      {studies.data?.length ? (
        <table>
          <caption className="sr">Studies of this project</caption>
          <thead>
            <tr>
              <th scope="col">Study</th>
              <th scope="col">Status</th>
              <th scope="col">Presentation</th>
            </tr>
          </thead>
          <tbody>
            {studies.data.map((s) => {
              const mode = (s.invitation as { presentation_mode?: string } | null)?.presentation_mode;
              return (
                <tr key={s.ref} data-study={s.handle}>
                  <td>
                    <Link href={`/p/${org}/${project}/studies/${s.ref}`}>{s.title}</Link>
                  </td>
                  <td>
                    <span className={`badge status-${s.status}`}>{s.status}</span>
                  </td>
                  <td>{mode ? (MODE_LABEL[mode] ?? mode) : 'No invitation'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : studies.isPending ? (
        <p className="muted" role="status">Loading…</p>
      ) : (
        <p className="muted">No studies yet.</p>
      )}
      <form
        className="panel stack"
        aria-labelledby="new-study"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h2 id="new-study">New study</h2>
        <p className="muted small">It starts as a draft with the starter script, goals and invitation, ready to edit.</p>
        <label className="stack">
          <span>Title</span>
          <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} />
        </label>
        <Problem error={create.error} />
        <button type="submit" disabled={create.isPending || !title.trim()}>
          {create.isPending ? 'Creating…' : 'Create study'}
        </button>
      </form>
    </>
  );
}
