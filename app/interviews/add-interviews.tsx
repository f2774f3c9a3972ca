import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { bytes, isRecording, isTranscript, RECORDING_LIMIT, TRANSCRIPT_LIMIT, uploadRecording, type Progress } from './resumable.ts';

interface Job {
  key: number;
  file: File;
  kind: 'transcript' | 'recording';
  participant: string;
  /** The active study the interview belongs to (its handle), or '' for none. */
  study: string;
}

/** Refuses a file the server would refuse, before any byte is sent; null when it may go. */
function refusal(f: File): string | null {
  if (isTranscript(f)) return f.size > TRANSCRIPT_LIMIT ? `${f.name} is ${bytes(f.size)}; a transcript can be at most 5 MiB.` : f.size === 0 ? `${f.name} is empty.` : null;
  if (isRecording(f)) return f.size > RECORDING_LIMIT ? `${f.name} is ${bytes(f.size)}; a recording can be at most 20 GiB.` : null;
  return `${f.name} is neither a transcript (.txt, .md, .vtt, .srt, .json) nor an audio or video recording. Save a document as plain text (.txt) first.`;
}

let nextKey = 1;

/** Drop (or pick) transcripts and recordings to add interviews; each file shows its own progress. */
export function AddInterviews({ org, project }: { org: string; project: string }) {
  const [jobs, setJobs] = useState<Job[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const [participant, setParticipant] = useState('');
  const [study, setStudy] = useState('');
  // Interviews a team ran with its own guide belong to that study: its goals' coverage counts them.
  const studies = useQuery({
    queryKey: ['studies', org, project],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/studies', { params: { path: { orgHandle: org, projectHandle: project } } })).studies,
  });
  const active = (studies.data ?? []).filter((s) => s.status === 'active');
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const take = (files: FileList | null) => {
    if (!files?.length) return;
    const bad: string[] = [];
    const good: Job[] = [];
    for (const f of Array.from(files)) {
      const why = refusal(f);
      if (why) bad.push(why);
      else good.push({ key: nextKey++, file: f, kind: isTranscript(f) ? 'transcript' : 'recording', participant: participant.trim(), study });
    }
    setRefused(bad);
    setJobs((j) => [...good, ...j]);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    take(e.dataTransfer.files);
  };

  return (
    <section aria-labelledby="add" className="panel stack">
      <h2 id="add">Add interviews</h2>
      <label className="stack iv-participant">
        <span>Participant name (optional)</span>
        <input value={participant} onChange={(e) => setParticipant(e.target.value)} autoComplete="off" />
      </label>
      {active.length ? (
        <label className="stack iv-participant">
          <span>Study (optional)</span>
          <select value={study} onChange={(e) => setStudy(e.target.value)}>
            <option value="">No study</option>
            {active.map((s) => (
              <option key={s.ref} value={s.handle}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <div
        className={`iv-drop${over ? ' over' : ''}`}
        data-testid="drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>Drop a transcript (.txt, .md, .vtt, .srt, .json, up to 5 MiB) or a recording (audio or video, up to 20 GiB) here, or</p>
        <input
          ref={input}
          id="iv-files"
          type="file"
          multiple
          className="sr"
          tabIndex={-1}
          aria-label="Transcript or recording files"
          accept=".txt,.md,.vtt,.srt,.json,text/*,audio/*,video/*"
          onChange={(e) => {
            take(e.target.files);
            e.target.value = '';
          }}
        />
        <button type="button" onClick={() => input.current?.click()}>
          Choose files
        </button>
      </div>
      {refused.length ? (
        <div className="problem" role="alert">
          {refused.map((r) => (
            <p key={r}>{r} It was not uploaded.</p>
          ))}
        </div>
      ) : null}
      {jobs.length ? (
        <ul className="cards" aria-label="Uploads">
          {jobs.map((j) => (
            <li key={j.key}>{j.kind === 'transcript' ? <TranscriptJob org={org} project={project} job={j} /> : <RecordingJob org={org} project={project} job={j} />}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** Starts a mutation once when it mounts (StrictMode would otherwise start it twice in development). */
function useStartOnce(start: () => void) {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, [start]);
}

function TranscriptJob({ org, project, job }: { org: string; project: string; job: Job }) {
  const client = useQueryClient();
  const send = useMutation({
    mutationFn: async () => {
      const fd = new FormData();
      fd.set('transcript', job.file, job.file.name);
      if (job.participant) fd.set('participant_name', job.participant);
      if (job.study) fd.set('study_ref', job.study);
      return data(
        await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/import-transcript', {
          params: { path: { orgHandle: org, projectHandle: project } },
          body: fd as never,
        }),
      ).session;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['sessions', org, project] }),
  });
  useStartOnce(send.mutate);
  return (
    <div className="stack">
      <strong>{job.file.name}</strong>
      {send.isSuccess ? (
        <Followed org={org} project={project} id={send.data.id} queued="Imported; evidence is being extracted." />
      ) : (
        <p className="muted small" role="status">
          {send.isPending ? 'Importing…' : send.isError ? 'Not imported.' : ''}
        </p>
      )}
      <Problem error={send.error} />
      {send.isError ? (
        <button type="button" className="secondary" onClick={() => send.mutate()}>
          Try {job.file.name} again
        </button>
      ) : null}
    </div>
  );
}

function RecordingJob({ org, project, job }: { org: string; project: string; job: Job }) {
  const client = useQueryClient();
  const [p, setP] = useState<Progress>({ sent: 0, total: job.file.size, retrying: null });
  const send = useMutation({
    mutationFn: () => uploadRecording(org, project, job.file, { ...(job.participant ? { participant_name: job.participant } : {}), ...(job.study ? { study_ref: job.study } : {}) }, setP),
    onSuccess: () => client.invalidateQueries({ queryKey: ['sessions', org, project] }),
  });
  useStartOnce(send.mutate);
  const pct = p.total ? Math.floor((p.sent / p.total) * 100) : 0;
  const id = `up-${job.key}`;
  const state = send.isError
      ? 'Upload paused: the parts already sent are kept.'
      : p.retrying
        ? `The connection failed; sending part ${p.retrying} again…`
        : 'Uploading…';
  return (
    <div className="stack">
      <label htmlFor={id} className="stack">
        <strong>{job.file.name}</strong>
        <span className="small" data-testid="upload-label">
          {bytes(p.sent)} of {bytes(p.total)} sent ({pct} %)
        </span>
      </label>
      <progress id={id} max={p.total} value={p.sent} />
      {send.isSuccess ? (
        <Followed org={org} project={project} id={send.data.id} queued="Uploaded; the recording is queued for processing." />
      ) : (
        <p className="muted small" role="status">
          {state}
        </p>
      )}
      <Problem error={send.error} />
      {send.isError ? (
        <button type="button" onClick={() => send.mutate()}>
          Resume {job.file.name}
        </button>
      ) : null}
    </div>
  );
}

/** An import or upload after it was sent: its processing followed until it is done, then a way to the interview. */
function Followed({ org, project, id, queued }: { org: string; project: string; id: string; queued: string }) {
  const processing = useQuery({
    queryKey: ['interview', org, project, id, 'processing'],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}/processing', { params: { path: { orgHandle: org, projectHandle: project, sessionId: id } } })),
    refetchInterval: (q) => (!q.state.data || q.state.data.status === 'pending' || q.state.data.status === 'processing' ? 2000 : false),
  });
  const p = processing.data;
  const done = p?.status === 'processed' || p?.status === 'failed';
  const said =
    p?.status === 'processed'
      ? `Processed: ${p.evidence_count} evidence ${p.evidence_count === 1 ? 'card' : 'cards'}${p.warnings.length ? `, with ${p.warnings.length === 1 ? 'a warning' : `${p.warnings.length} warnings`}` : ''}.`
      : p?.status === 'failed'
        ? `Processing failed: ${p.error_message ?? 'see the interview'}.`
        : queued;
  return (
    <p className="muted small" role="status">
      {said} {done ? <Link href={`/p/${org}/${project}/interviews/${id}`}>Open the interview</Link> : null}
    </p>
  );
}
