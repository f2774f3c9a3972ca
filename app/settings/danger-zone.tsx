import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { projectPath } from './paths.ts';
import { ConfirmHandle } from './confirm-handle.tsx';

/** Steps that cannot be undone, each behind typing the project's handle. */
export function DangerZone({ org, project }: { org: string; project: string }) {
  const path = projectPath(org, project);
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState<'purge' | 'delete' | null>(null);
  const purge = useMutation({
    mutationFn: async () => data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/purge', { params: { path }, body: { confirm: project } })),
    onSuccess: () => {
      setOpen(null);
      void client.invalidateQueries();
    },
  });
  const remove = useMutation({
    mutationFn: async () => data(await api.DELETE('/api/orgs/{orgHandle}/projects/{projectHandle}', { params: { path } })),
    onSuccess: () => {
      client.removeQueries({ queryKey: ['project', org, project] });
      void client.invalidateQueries({ queryKey: ['projects'] });
      navigate('/projects');
    },
  });
  const p = purge.data;
  return (
    <section aria-labelledby="danger" className="panel stack settings danger-zone">
      <h2 id="danger">Purge or delete</h2>
      <div className="row spread">
        <p>Purge the research data: interviews, recordings, evidence, findings and work items. The project, its studies and settings stay.</p>
        <button type="button" className="secondary" onClick={() => setOpen('purge')}>
          Purge research data…
        </button>
      </div>
      <p role="status" className={p ? undefined : 'sr'}>{p ? `Purged ${p.dbRowsDeleted} records and ${p.objectsDeleted} stored files${p.success ? '.' : '; some files could not be deleted.'}` : ''}</p>
      <div className="row spread">
        <p>Delete the project and everything in it.</p>
        <button type="button" className="secondary" onClick={() => setOpen('delete')}>
          Delete project…
        </button>
      </div>
      <ConfirmHandle open={open === 'purge'} title="Purge research data" handle={project} action="Purge research data" pending={purge.isPending} onConfirm={() => purge.mutate()} onClose={() => setOpen(null)}>
        <p>Every interview, recording, evidence card, finding and work item of this project is deleted. This cannot be undone.</p>
        <Problem error={purge.error} />
      </ConfirmHandle>
      <ConfirmHandle open={open === 'delete'} title="Delete this project" handle={project} action="Delete project" pending={remove.isPending} onConfirm={() => remove.mutate()} onClose={() => setOpen(null)}>
        <p>The project, its studies, settings and all research data are deleted. This cannot be undone.</p>
        <Problem error={remove.error} />
      </ConfirmHandle>
    </section>
  );
}
