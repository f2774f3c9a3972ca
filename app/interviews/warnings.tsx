import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';

type Warning = { step: string; code: string; message: string; action?: string | null };

/** An action as the API says it, in the words of this page: its settings and buttons instead of fields and routes. */
const forPeople = (action: string) =>
  action
    .replace(/,?\s*then POST P\/sessions\/[\w-]+\/retry-transcription/g, ', then press "Transcribe again"')
    .replace(/\(?\bopenai_api_key or TRANSCRIPTION_URL\)?/g, '(an OpenAI key in the project settings, or a transcription service set up on the server)')
    .replace(/\binterview_language\b/g, 'the interview language (project settings)')
    .replace(/\bopenai_api_key\b/g, 'an OpenAI key (project settings)')
    .replace(/,?\s*or (?:POST|GET|PATCH|DELETE) P\/[^\s)]+/g, '')
    .replace(/\s*\((?:POST|GET|PATCH|DELETE) P\/[^)]*\)/g, '')
    .replace(/\s{2,}/g, ' ');

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
          {w.action ? <p className="muted small">{forPeople(w.action)}</p> : null}
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
