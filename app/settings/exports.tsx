import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { when } from './paths.ts';

const STATE: Record<string, string> = { queued: 'Waiting to start', running: 'Being prepared', completed: 'Ready to download', failed: 'Failed' };

/** A zip of everything the signed-in person can see, prepared in the background. */
export function DataExport() {
  const client = useQueryClient();
  const jobs = useQuery({
    queryKey: ['data-exports'],
    queryFn: async () => data(await api.GET('/api/user/data-exports', { params: { query: { limit: 1 } } })).jobs,
    // Poll only while an export is being prepared.
    refetchInterval: (q) => (q.state.data?.some((j) => j.status === 'queued' || j.status === 'running') ? 1500 : false),
  });
  const request = useMutation({
    mutationFn: async () => data(await api.POST('/api/user/data-exports', {})).job,
    onSuccess: (job) => client.setQueryData(['data-exports'], [job]),
  });
  const job = jobs.data?.[0];
  const busy = job?.status === 'queued' || job?.status === 'running';
  return (
    <section aria-labelledby="export" className="panel stack settings">
      <h2 id="export">Export your data</h2>
      <p className="muted small">A zip of JSON files with every project you can see: studies, interviews with transcripts, evidence, findings and work items. Recordings are listed with links.</p>
      <button type="button" className="settings-fit" onClick={() => request.mutate()} disabled={busy || request.isPending}>
        Request an export
      </button>
      <Problem error={jobs.error ?? request.error} />
      {job ? (
        <div role="status" className="stack" data-testid="export-state" data-status={job.status}>
          <p>
            <strong>{STATE[job.status]}</strong>
            {busy ? ` · ${job.progress.percent}%` : ''} <span className="muted">(requested {when(job.requested_at)})</span>
          </p>
          {job.error_message ? <p className="muted">{job.error_message}</p> : null}
          {job.download_url ? (
            <p>
              <a href={job.download_url} download>
                Download the export
              </a>{' '}
              <span className="muted">
                {job.size_bytes !== null ? `${Math.max(1, Math.round(job.size_bytes / 1024))} KB · ` : ''}kept until {when(job.expires_at)}
              </span>
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
