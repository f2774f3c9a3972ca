import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { Dialog } from '../pages/evidence/dialog.tsx';

/** "Delete interview": asks first, then deletes the interview with its transcript, recording and evidence, and goes back to the list. */
export function DeleteInterview({ org, project, id, name }: { org: string; project: string; id: string; name: string }) {
  const [asking, setAsking] = useState(false);
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: async () => data(await api.DELETE('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}', { params: { path: { orgHandle: org, projectHandle: project, sessionId: id } } })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['sessions', org, project] });
      navigate(`/p/${org}/${project}/interviews`);
    },
  });
  return (
    <>
      <button type="button" className="secondary" onClick={() => setAsking(true)}>
        Delete interview
      </button>
      {asking ? (
        <Dialog title="Delete this interview?" onClose={() => setAsking(false)}>
          <div className="stack">
            <p>
              The interview with {name}, its transcript, recording and evidence cards are deleted for good. Evidence in findings is taken out of them.
            </p>
            <Problem error={remove.error} />
            <div className="row">
              <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
                {remove.isPending ? 'Deleting…' : 'Delete interview'}
              </button>
              <button type="button" className="secondary" data-autofocus onClick={() => setAsking(false)}>
                Cancel
              </button>
            </div>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
