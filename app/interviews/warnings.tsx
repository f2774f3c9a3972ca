import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';

type Warning = { step: string; code: string; message: string; action?: string | null };

/** What processing finished with but warned about, and, for a transcript, a way to make it again once its cause is fixed. */
export function ProcessingWarnings({ org, project, id, warnings }: { org: string; project: string; id: string; warnings: Warning[] }) {
  const client = useQueryClient();
  const again = useMutation({
    mutationFn: async () =>
      data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}/retry-transcription', { params: { path: { orgHandle: org, projectHandle: project, sessionId: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['interview', org, project, id, 'processing'] }),
  });
  if (!warnings.length) return null;
  const transcript = warnings.some((w) => w.step === 'transcribing');
  return (
    <section className="notice stack" aria-label="Processing warnings">
      {warnings.map((w) => (
        <div key={`${w.step}:${w.code}`} data-warning={w.code}>
          <p>{w.message}.</p>
          {w.action ? <p className="muted small">{w.action}</p> : null}
        </div>
      ))}
      {transcript ? (
        <div className="row">
          <button type="button" className="secondary" disabled={again.isPending} onClick={() => again.mutate()}>
            {again.isPending ? 'Queuing…' : 'Transcribe again'}
          </button>
        </div>
      ) : null}
      <Problem error={again.error} />
    </section>
  );
}
