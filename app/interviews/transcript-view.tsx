import { useEffect, useMemo, useRef, useState } from 'react';
import { locate, pieces } from './highlight.ts';

/** Who spoke, when the transcript names no one (a recording whose voices were told apart). */
const ROLE_NAMES: Record<string, string> = { interviewer: 'Interviewer', participant: 'Participant' };
/** A mark's colour says what kind of moment it is: trouble, things that went well, or the rest. */
const TONE: Record<string, string> = {
  struggling_moment: 'trouble', critical_error: 'trouble', firing_moment: 'trouble',
  smooth_completion: 'good', recovery_success: 'good', no_issue_found: 'good',
};

export interface Segment {
  id: string;
  idx: number;
  speaker: string | null;
  role: string;
  start_ms: number | null;
  end_ms: number | null;
  text: string;
}
export interface Card {
  id: string;
  quote: string;
  segment_id: string | null;
  headline?: string | null;
  signal_type: string;
}
export interface Media {
  name: string;
  url: string;
  mime: string;
}

export const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * The transcript by speaker. With a recording, the player follows it: a line's time seeks, and the line
 * being played is highlighted (aria-current). Evidence quotes are marked; choosing one shows its card (and seeks there).
 */
export function TranscriptView({ segments, cards, media, onPick, at = null, play = null }: { segments: Segment[]; cards: Card[]; media: Media | null | undefined; onPick: (id: string) => void; at?: number | null; play?: string | null }) {
  const player = useRef<HTMLMediaElement | null>(null);
  const [now, setNow] = useState<number | null>(at);
  const ranges = useMemo(() => locate(segments, cards), [segments, cards]);
  const timed = !!media && segments.some((s) => s.start_ms !== null);
  const playing = now === null ? null : segments.find((s) => s.start_ms !== null && now >= s.start_ms && now < (s.end_ms ?? Infinity))?.id;
  const seek = (ms: number | null) => {
    const el = player.current;
    if (ms === null || !el) return;
    const go = () => {
      el.currentTime = ms / 1000;
      void el.play().catch(() => {});
    };
    setNow(ms);
    // Before its metadata is in, a media element drops a seek: wait for it.
    if (el.readyState >= HTMLMediaElement.HAVE_METADATA) go();
    else el.addEventListener('loadedmetadata', go, { once: true });
  };
  const type = (c: Card) => c.signal_type.charAt(0).toUpperCase() + c.signal_type.slice(1).replace(/_/g, ' ');
  const label = (c: Card) => (c.headline ? `${type(c)}: ${c.headline}` : type(c));

  // A link to a moment (?t= from an evidence card): that line is shown, marked and cued in the player;
  // a frame under "On screen", chosen on this page (?play=<each choice its own>), plays from there as a line's time does.
  // Each new link is gone to once, when the transcript and (for a recording) its player are there: the recording's
  // address can arrive after the transcript, and a moment gone to before then was lost.
  // Before its metadata is in, a media element drops a seek: the moment waits for it, on whichever element then holds the recording.
  const pending = useRef<{ ms: number; play: boolean } | null>(null);
  const cued = (el: HTMLMediaElement) => {
    const p = pending.current;
    if (!p) return;
    pending.current = null;
    el.currentTime = p.ms / 1000;
    if (p.play) void el.play().catch(() => {});
  };
  const jumped = useRef<string | null>(null);
  useEffect(() => {
    const key = `${at}:${play ?? ''}`;
    if (at === null || key === jumped.current || !segments.length) return;
    const el = player.current;
    // (media is undefined until the interview's artifacts are read: whether there is a recording is not known yet.)
    if (media === undefined || (media && !el)) return;
    jumped.current = key;
    const line = [...segments].reverse().find((s) => s.start_ms !== null && s.start_ms <= at) ?? segments[0];
    document.querySelector(`[data-segment="${CSS.escape(line.id)}"]`)?.scrollIntoView({ block: 'center' });
    if (!el) return;
    pending.current = { ms: at, play: play !== null };
    if (el.readyState >= HTMLMediaElement.HAVE_METADATA) cued(el);
  }, [at, play, segments, media]);

  return (
    <>
      {media ? (
        <div className="iv-player">
          {media.mime.startsWith('video/') ? (
            <video ref={(el) => void (player.current = el)} src={media.url} controls preload="auto" onLoadedMetadata={(e) => cued(e.currentTarget)} onTimeUpdate={(e) => setNow(e.currentTarget.currentTime * 1000)} aria-label="Interview recording" />
          ) : (
            <audio ref={(el) => void (player.current = el)} src={media.url} controls preload="auto" onLoadedMetadata={(e) => cued(e.currentTarget)} onTimeUpdate={(e) => setNow(e.currentTarget.currentTime * 1000)} aria-label="Interview recording" />
          )}
        </div>
      ) : null}
      <ol className="iv-transcript" aria-label="Transcript">
        {segments.map((s) => (
          <li
            key={s.id}
            data-segment={s.id}
            data-role={s.role}
            aria-current={playing === s.id ? 'true' : undefined}
            onClick={timed && s.start_ms !== null ? () => seek(s.start_ms) : undefined}
            className={timed ? 'seekable' : undefined}
          >
            <div className="iv-who">
              <strong>{s.speaker ?? ROLE_NAMES[s.role] ?? 'Speaker'}</strong>
              {timed && s.start_ms !== null ? (
                <button type="button" className="link" onClick={(e) => (e.stopPropagation(), seek(s.start_ms))} aria-label={`Play from ${clock(s.start_ms)}`}>
                  {clock(s.start_ms)}
                </button>
              ) : s.start_ms !== null ? (
                <span className="muted small">{clock(s.start_ms)}</span>
              ) : null}
            </div>
            <p>
              {pieces(s.text, ranges.get(s.id)).map((p, i) =>
                p.signalId ? (
                  <mark
                    key={i}
                    data-signal={p.signalId}
                    role="button"
                    tabIndex={0}
                    title={label(cards.find((c) => c.id === p.signalId)!)}
                    data-tone={TONE[cards.find((c) => c.id === p.signalId)!.signal_type] ?? 'other'}
                    onClick={() => onPick(p.signalId!)}
                    onKeyDown={(e) => {
                      if (e.key !== 'Enter' && e.key !== ' ') return;
                      e.preventDefault();
                      onPick(p.signalId!);
                    }}
                  >
                    {p.text}
                  </mark>
                ) : (
                  <span key={i}>{p.text}</span>
                ),
              )}
            </p>
          </li>
        ))}
      </ol>
    </>
  );
}
