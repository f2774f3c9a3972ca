import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { ProjectNav } from '../project-nav.tsx';
import { ProcessingBadge } from '../interviews/processing.tsx';
import { ProcessingWarnings } from '../interviews/warnings.tsx';
import { DeleteInterview } from '../interviews/delete.tsx';
import { RowAction } from './interviews.tsx';
import { heldOn } from '../interviews/held.ts';
import { clock, TranscriptView, type Media } from '../interviews/transcript-view.tsx';

/** How a transcript was made, in a line above it. */
const FORMAT_NOTES: Record<string, string> = {
  'speech:built_in': 'Transcribed on this server by the built-in English model; some words may be misheard',
  'speech:service': 'Transcribed by the transcription service',
};
const formatNote = (format: string) => {
  const [made, timing] = format.split('+');
  return `${FORMAT_NOTES[made] ?? `Imported (${made})`}${timing === 'estimated_timing' ? '; times estimated from speech rate' : ''}.`;
};

type Artifact = { name: string; kind: string; available: boolean; mime_type: string; download_url: string | null; meta: Record<string, unknown> | null };

/**
 * The recording to play: a source video the browser can play (when the recording has pictures: an
 * MP4 of sound alone is a voice interview), else the derived audio, else a source audio.
 */
function mediaOf(artifacts: Artifact[], pictures: boolean): Media | null {
  const ok = artifacts.filter((a) => a.available && a.download_url);
  const probe = typeof document === 'undefined' ? null : document.createElement('video');
  const video = pictures ? ok.find((a) => a.kind === 'source' && a.mime_type.startsWith('video/') && probe?.canPlayType(a.mime_type)) : undefined;
  const audio = ok.find((a) => a.name === 'audio') ?? ok.find((a) => a.kind === 'source' && a.mime_type.startsWith('audio/'));
  const pick = video ?? audio;
  return pick ? { name: pick.name, url: pick.download_url!, mime: pick.mime_type } : null;
}

/** One interview: transcript by speaker with its evidence marked, the recording in sync, the timeline and what was read on screen. */
export function Interview({ org, project, id }: { org: string; project: string; id: string }) {
  const path = { orgHandle: org, projectHandle: project, sessionId: id };
  const key = ['interview', org, project, id];
  const client = useQueryClient();
  const [picked, setPicked] = useState<string | null>(null);
  const pickedHeading = useRef<HTMLHeadingElement>(null);
  // ?t=<ms>: the moment an evidence card links to.
  const query = new URLSearchParams(useSearch());
  const t = Number(query.get('t') ?? NaN);
  const at = Number.isFinite(t) && t >= 0 ? t : null;
  // ?play=<n>: a frame chosen on this page plays from its moment (each choice its own n, so choosing it again goes back
  // there); a card's link from elsewhere only cues it.
  const play = query.get('play');
  const [, navigate] = useLocation();
  const playFrom = (ms: number) => (e: { preventDefault: () => void }) => {
    e.preventDefault();
    navigate(`/p/${org}/${project}/interviews/${id}?t=${ms}&play=${Date.now()}`);
  };

  const session = useQuery({ queryKey: [...key, 'session'], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}', { params: { path } })).session });
  const processing = useQuery({
    queryKey: [...key, 'processing'],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}/processing', { params: { path } })),
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'pending' || q.state.data.status === 'processing') ? 2000 : false),
  });
  const transcript = useQuery({ queryKey: [...key, 'transcript'], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}/transcript', { params: { path } })) });
  const cards = useQuery({
    queryKey: [...key, 'signals'],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/signals', { params: { path: { orgHandle: org, projectHandle: project }, query: { session_id: id, limit: 200 } } })).signals,
  });
  const artifacts = useQuery({ queryKey: [...key, 'artifacts'], staleTime: 10 * 60_000, queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}/artifacts', { params: { path } })).artifacts });
  const timeline = useQuery({ queryKey: [...key, 'timeline'], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions/{sessionId}/timeline', { params: { path } })).items });

  // When processing settles, what it produced (transcript, evidence, media) is read again.
  const status = processing.data?.status;
  const last = useRef(status);
  useEffect(() => {
    if (last.current && last.current !== status) void client.invalidateQueries({ queryKey: key, predicate: (q) => q.queryKey[4] !== 'processing' });
    last.current = status;
  });
  // Picked in the transcript, the card is read beside it; picked in the evidence list (again, too), the transcript goes to its words.
  const fromList = useRef(false);
  const [goes, setGoes] = useState(0);
  useEffect(() => {
    if (!picked) return;
    const mark = fromList.current ? document.querySelector<HTMLElement>(`mark[data-signal="${picked}"]`) : null;
    fromList.current = false;
    if (!mark) return pickedHeading.current?.focus();
    mark.scrollIntoView({ block: 'center' });
    mark.focus({ preventScroll: true });
  }, [picked, goes]);

  const s = session.data;
  // In the order they were said, as the transcript beside them; cards with no moment last.
  const ordered = [...(cards.data ?? [])].sort((x, y) => (x.timestamp_ms ?? Infinity) - (y.timestamp_ms ?? Infinity));
  const card = cards.data?.find((c) => c.id === picked);
  // Each read of the artifacts signs new URLs: keep the one playing, or the player would start over.
  const pictures = s?.interview_mode === 'video' || (artifacts.data ?? []).some((a) => a.kind === 'frame');
  const fresh = mediaOf(artifacts.data ?? [], pictures);
  const kept = useRef<Media | null>(null);
  if (fresh?.name !== kept.current?.name) kept.current = fresh;
  const media = kept.current;
  const frames = (artifacts.data ?? []).filter((a) => a.kind === 'frame' && a.available);
  const screenText = (artifacts.data ?? []).filter((a) => a.kind === 'screen_text');
  const events = (timeline.data ?? []).filter((t) => t.kind !== 'transcript');
  const p = processing.data;

  return (
    <>
      <ProjectNav org={org} project={project} />
      <p>
        <Link href={`/p/${org}/${project}/interviews`}>All interviews</Link>
      </p>
      <div className="row spread">
        <h1>{s ? (s.participant_name ?? 'Anonymous') : 'Interview'}</h1>
        <div className="row">
          {p ? <ProcessingBadge status={p.status} step={p.current_step} /> : null}
          {p && s ? <RowAction org={org} project={project} id={id} status={p.status} name={s.participant_name ?? 'Anonymous'} /> : null}
          {s ? <DeleteInterview org={org} project={project} id={id} name={s.participant_name ?? 'an anonymous participant'} /> : null}
        </div>
      </div>
      <Problem error={session.error} />
      {s ? (
        <p className="muted">
          {s.source} · {s.interview_mode ?? 'text'} · {heldOn(s)}
          {s.duration_seconds ? ` · ${clock(s.duration_seconds * 1000)}` : ''}
        </p>
      ) : null}
      {s?.summary ? <p className="iv-summary">{s.summary}</p> : null}
      {p?.status === 'pending' || p?.status === 'processing' ? (
        <p role="status" className="muted">
          Processing{p.transcription.total ? `: ${p.transcription.completed} of ${p.transcription.total} parts transcribed` : '…'}
        </p>
      ) : null}
      {p?.status === 'failed' ? <Problem error={{ message: p.error_message ?? 'Processing failed.', action: p.action ?? undefined }} /> : null}
      {p?.status === 'processed' ? <ProcessingWarnings org={org} project={project} id={id} warnings={p.warnings} /> : null}

      <div className="iv-layout">
        <section aria-labelledby="transcript" className="stack">
          <h2 id="transcript">Transcript</h2>
          {transcript.data?.format ? <p className="muted iv-format">{formatNote(transcript.data.format)}</p> : null}
          <Problem error={transcript.error} />
          {transcript.data?.segments.length ? (
            <TranscriptView segments={transcript.data.segments} cards={cards.data ?? []} media={artifacts.data ? media : undefined} onPick={setPicked} at={at} play={play} />
          ) : (
            <p className="muted">{transcript.isPending ? 'Loading…' : 'No transcript yet.'}</p>
          )}
        </section>
        <aside className="stack" aria-label="Evidence and context">
          {card ? (
            <section aria-labelledby="picked" className="panel stack iv-picked" data-signal={card.id}>
              <h2 id="picked" ref={pickedHeading} tabIndex={-1}>
                {card.headline ?? card.signal_type.replace(/_/g, ' ')}
              </h2>
              <p className="muted small">
                {card.signal_type.replace(/_/g, ' ')} · confidence {Math.round(card.confidence * 100)} %{card.timestamp_ms !== null ? ` · at ${clock(card.timestamp_ms)}` : ''}
              </p>
              <blockquote>{card.quote}</blockquote>
              {card.claim ? <p>{card.claim}</p> : null}
              <div className="row">
                <Link href={`/p/${org}/${project}/evidence?interview=${id}`}>Review, dismiss or correct</Link>
                <button type="button" className="secondary" onClick={() => setPicked(null)}>
                  Close card
                </button>
              </div>
            </section>
          ) : null}
          <section aria-labelledby="evidence">
            <div className="row spread">
              <h2 id="evidence">Evidence ({cards.data?.length ?? 0})</h2>
              {cards.data?.length ? <Link href={`/p/${org}/${project}/evidence?interview=${id}`}>Review these cards</Link> : null}
            </div>
            <Problem error={cards.error} />
            {ordered.length ? (
              <ul className="cards iv-cards">
                {ordered.map((c) => (
                  <li key={c.id}>
                    <span className="muted small iv-type">{c.signal_type.replace(/_/g, ' ')}</span>{' '}
                    <button type="button" className="link" onClick={() => ((fromList.current = true), setPicked(c.id), setGoes((n) => n + 1))} aria-pressed={picked === c.id}>
                      {c.headline ?? c.signal_type.replace(/_/g, ' ')}
                    </button>
                    <blockquote>{c.quote}</blockquote>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No evidence yet.</p>
            )}
          </section>
          {/* An imported transcript has no page events or messages to show. */}
          {s?.source === 'import' && !events.length ? null : (
            <section aria-labelledby="timeline">
              <h2 id="timeline">Timeline</h2>
              {events.length ? (
                <ol className="iv-events">
                  {events.map((e, i) => (
                    <li key={i}>
                      <span className="muted small">{clock(e.timestamp_ms)}</span> <strong>{e.event_type ?? e.kind}</strong> {e.text}
                    </li>
                  ))}
                </ol>
              ) : (
                <p className="muted">No page events or messages recorded.</p>
              )}
            </section>
          )}
          {frames.length || screenText.length ? (
            <section aria-labelledby="screen">
              <h2 id="screen">On screen</h2>
              <ul className="cards">
                {frames.map((f) => {
                  const read = screenText.find((t) => t.meta?.frame === f.name);
                  return (
                    <li key={f.name} data-artifact={f.name}>
                      <figure className="iv-figure">
                        <Link href={`/p/${org}/${project}/interviews/${id}?t=${Number(f.meta?.timestamp_ms ?? 0)}&play`} onClick={playFrom(Number(f.meta?.timestamp_ms ?? 0))} tabIndex={-1}>
                          <img src={f.download_url!} alt={`Frame at ${clock(Number(f.meta?.timestamp_ms ?? 0))}`} className="iv-frame" />
                        </Link>
                        <figcaption>
                          <Link href={`/p/${org}/${project}/interviews/${id}?t=${Number(f.meta?.timestamp_ms ?? 0)}&play`} onClick={playFrom(Number(f.meta?.timestamp_ms ?? 0))} className="small" aria-label={`At ${clock(Number(f.meta?.timestamp_ms ?? 0))}: play from where this screen was shown`}>
                            At {clock(Number(f.meta?.timestamp_ms ?? 0))}
                          </Link>
                          {read ? <pre className="iv-ocr">{String(read.meta?.text ?? '')}</pre> : <span className="muted small"> · no text read</span>}
                        </figcaption>
                      </figure>
                    </li>
                  );
                })}
                {screenText
                  .filter((t) => !frames.some((f) => f.name === t.meta?.frame))
                  .map((t) => (
                    <li key={t.name} data-artifact={t.name}>
                      <span className="muted small">Read at {clock(Number(t.meta?.timestamp_ms ?? 0))}</span>
                      <pre className="iv-ocr">{String(t.meta?.text ?? '')}</pre>
                    </li>
                  ))}
              </ul>
            </section>
          ) : null}
        </aside>
      </div>
    </>
  );
}
