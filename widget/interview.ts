import { h, uid } from './dom.ts';
import type { ConductorMessage } from './types.ts';
import { levelMonitor, listen, recordContinuously, speak, stopSpeaking, type Listening } from './voice.ts';
import type { RealtimeCall, RealtimeHandlers } from './realtime.ts';

export interface InterviewView {
  nodes: Node[];
  close(): void;
}

/** A voice interview: the microphone and where each recorded answer goes. */
export interface VoiceOptions {
  stream: MediaStream;
  /** Stores one recorded answer (POST /api/sdk/audio/upload). */
  upload(blob: Blob, chunkIndex: number, startedMs: number): Promise<void>;
  /** A pause this long ends an answer. */
  pauseMs?: number;
  /** Listening stops after this long without speech. */
  giveUpMs?: number;
  /** Opens a call with the realtime model, when the project has one; without it (or if it fails) answers are recorded one by one. */
  realtime?: (handlers: RealtimeHandlers) => Promise<RealtimeCall>;
}

const OBSERVE_HINT = "Use the page as you normally would. Type what you notice as you go, then press I'm done.";
const NOTED = 'Noted:';

/** Length of each recorded piece during a realtime call. */
const PIECE_MS = 5000;

/** What the participant clicked, in a few words, for the observe cues. */
function describeClick(el: Element): string {
  const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `clicked ${el.tagName.toLowerCase()}${text ? ` "${text}"` : ''}`;
}

/** Quick reconnection tries (0.5 s to 4 s apart), then one every RETRY_CAP_MS until the interview could no longer resume. */
const QUICK_RETRIES = 4;
const RETRY_CAP_MS = 15_000;
const MAX_RETRIES = 25;

/**
 * The live conversation: the conductor's messages and the participant's answers in a log
 * that screen readers announce, a composer for talk segments, "I'm done" for observe
 * segments, and page clicks recorded as cues while observing. Reconnects on its own.
 *
 * With `voice`, the conductor's turns are spoken and captioned, and answers are recorded:
 * listening, thinking and speaking show in a status line with a level meter, mute and
 * "Done"; any answer can be typed instead, and a failed transcription can be retried.
 * `onEnded` gets the conductor's last turn (what it said after the participant's last message, its
 * closing words last; empty if it never closed), for the last screen to keep. `onObserving` says
 * when an observe segment starts and stops: the panel then shrinks to a bar with the task (the
 * `.vb-task` line, shown only there), the composer for notes and "I'm done".
 */
export function interviewView(
  wsUrl: string,
  host: Element,
  allowedSelectors: string[],
  onEnded: (lastTurn: string[]) => void,
  voice?: VoiceOptions,
  onObserving: (observing: boolean) => void = () => {},
): InterviewView {
  const log = h('div', { class: 'vb-log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
  const task = h('p', { class: 'vb-task', id: uid('vb-task') });
  const status = h('p', { class: 'vb-small', role: 'status' });
  const answer = h('textarea', { 'aria-label': 'Your answer', rows: '2', placeholder: 'Type your answer…' });
  const send = h('button', { type: 'button', class: 'vb-primary' }, 'Send');
  send.style.alignSelf = 'auto';
  const compose = h('div', { class: 'vb-compose' }, answer, send);
  const done = h('button', { type: 'button', class: 'vb-primary' }, "I'm done");
  // Ending is for good, so it asks first, inline; and it looks nothing like "I'm done".
  const end = h('button', { type: 'button', class: 'vb-quiet' }, 'End interview');
  const confirmId = uid('vb-confirm');
  const endNow = h('button', { type: 'button', class: 'vb-danger' }, 'End');
  const keepGoing = h('button', { type: 'button', class: 'vb-secondary' }, 'Keep going');
  const confirm = h('div', { class: 'vb-confirm', role: 'group', 'aria-labelledby': confirmId, hidden: true },
    h('p', { id: confirmId }, 'End the interview now?'), h('div', { class: 'vb-row' }, endNow, keepGoing));
  let awaiting: string | null = null;
  /** The participant's last note while observing, shortened, for the bar to confirm. */
  let lastNote: string | null = null;
  /** The interviewer's answer to a question typed during the task; `ownLine` is what the status line last said of its own. */
  let reply: string | null = null;
  let ownLine = '';
  let ended = false;
  let closed = false;
  let ws: WebSocket | null = null;
  let retries = 0;
  let reconnecting: ReturnType<typeof setTimeout> | null = null;
  /** After a few quick tries, the participant can try at once rather than wait for the next. */
  const reconnectNow = h('button', { type: 'button', class: 'vb-secondary', hidden: '' }, 'Reconnect now');

  // Voice controls (only shown in a voice interview).
  const voiceState = h('p', { class: 'vb-voice-state', role: 'status', 'aria-live': 'polite' });
  const caption = h('p', { class: 'vb-caption', 'aria-hidden': 'true' });
  const meter = h('meter', { class: 'vb-meter', min: '0', max: '1', value: '0', 'aria-label': 'Microphone level' });
  const stopAnswer = h('button', { type: 'button', class: 'vb-primary', 'aria-label': 'Done answering' }, 'Done');
  const mute = h('button', { type: 'button', class: 'vb-secondary', 'aria-pressed': 'false' }, 'Mute');
  const typeInstead = h('button', { type: 'button', class: 'vb-secondary' }, 'Type instead');
  const retry = h('button', { type: 'button', class: 'vb-secondary' }, 'Try again');
  const voiceBar = h('div', { class: 'vb-voice' }, voiceState, caption, h('div', { class: 'vb-row' }, meter, stopAnswer, mute, typeInstead, retry));
  /** Answering by typing: a text interview, or the participant chose to type (until they choose to speak again). */
  let typing = !voice;
  let listening: Listening | null = null;
  let speaking: Promise<void> = Promise.resolve();
  let clockOffset = 0;
  let nextChunk = 0;
  /** The recorded answer to send again with Try again; -1 when nothing was heard (Try again listens anew). */
  let failedChunk: number | null = null;
  let muted = false;
  // A realtime call, once the first question is asked: the model speaks, its transcription answers.
  let call: RealtimeCall | null = null;
  let callOpening: Promise<RealtimeCall | null> | null = null;
  let recording: { stop(): Promise<void> } | null = null;
  let stopLevel: (() => void) | null = null;
  const uploads = new Set<Promise<void>>();

  const setVoiceState = (label: string) => {
    voiceState.textContent = label;
    voiceBar.dataset.state = label.replace(/…$/, '').toLowerCase();
  };
  const showButtons = () => {
    const answering = awaiting === 'answer';
    // While observing, a text interview's composer takes what the participant notices as they go.
    compose.hidden = !(answering || awaiting === 'observe') || !typing;
    answer.placeholder = awaiting === 'observe' ? 'Type what you notice as you go (optional)…' : 'Type your answer…';
    // The observing hint, or what was last noted, unless the line says something else (an error, a reconnect).
    const own = !status.textContent || status.textContent === ownLine;
    // The interviewer's reply to a question typed during the task shows here, as the conversation is hidden.
    const line = awaiting !== 'observe' ? '' : reply ?? (!typing ? '' : lastNote ? `${NOTED} “${lastNote}”${/[.!?…]$/.test(lastNote) ? '' : '.'} Type more as you go, or press I'm done.` : OBSERVE_HINT);
    if (own) status.textContent = ownLine = line;
    stopAnswer.hidden = !listening;
    mute.hidden = !voice;
    typeInstead.hidden = !voice || !answering;
    typeInstead.textContent = typing ? 'Speak instead' : 'Type instead';
    retry.hidden = failedChunk === null || !answering;
    done.hidden = awaiting !== 'observe';
  };
  let taskSegment: string | undefined;
  const setAwaiting = (a: string | null, segmentId?: string) => {
    // One task straight after another ("done" typed in the first) is a change too, though both await "observe".
    const nextTask = a === 'observe' && segmentId !== undefined && segmentId !== taskSegment;
    const changed = a !== awaiting || nextTask;
    awaiting = a;
    if (a === 'observe' && segmentId !== undefined) taskSegment = segmentId;
    if (changed) lastNote = reply = null;
    if (changed && a === 'observe') {
      // The task is the first thing the conductor said in the segment: its observe prompt (also after a reload, when kinds are not sent again).
      task.textContent = (segmentId && firstSaid.get(segmentId)) || lastSaid;
      answer.setAttribute('aria-describedby', task.id);
    } else if (changed) answer.removeAttribute('aria-describedby');
    showButtons();
    if (changed) onObserving(a === 'observe');
    // Focus moves only when what is awaited changes: a note sent while observing keeps the composer.
    if (changed && a === 'answer' && typing) answer.focus();
    if (changed && a === 'observe') (typing ? answer : done).focus();
    if (voice && a === 'answer' && !typing) void speaking.then(startListening);
  };

  let closingTurn: string[] = [];
  let lastTurn: string[] = [];
  let lastSaid = '';
  const firstSaid = new Map<string, string>();
  const add = (m: ConductorMessage) => {
    if (m.role === 'conductor') lastSaid = m.text;
    if (m.role === 'conductor' && m.segment_id && !firstSaid.has(m.segment_id)) firstSaid.set(m.segment_id, m.text);
    // An answer to the participant's last words comes before the closing: the last screen keeps both
    // (a task prompt, or the lines before it, belong to the task, not to that answer).
    lastTurn = m.role === 'conductor' && m.kind !== 'observe' ? [...lastTurn, m.text] : [];
    if (m.role === 'conductor' && m.kind === 'closing') closingTurn = lastTurn;
    log.append(h('div', { class: `vb-msg vb-msg-${m.role}` }, h('span', { class: 'vb-sr' }, m.role === 'conductor' ? 'Interviewer: ' : 'You: '), m.text));
    log.scrollTop = log.scrollHeight;
  };
  const frame = (f: Record<string, unknown>) => ws?.readyState === WebSocket.OPEN && ws.send(JSON.stringify(f));

  const startListening = () => {
    if (!voice || listening || closed || ended || typing || awaiting !== 'answer') return;
    if (call) return setVoiceState('Listening…');
    failedChunk = null;
    setVoiceState('Listening…');
    caption.textContent = '';
    const now = listen(voice.stream, {
      onLevel: (v) => (meter.value = muted ? 0 : v),
      onSpeech: () => (caption.textContent = 'I can hear you. Pause, or press Done, when you have finished.'),
      pauseMs: voice.pauseMs ?? 1500,
      giveUpMs: voice.giveUpMs ?? 60_000,
    });
    listening = now;
    showButtons();
    stopAnswer.focus();
    void now.done.then(async (rec) => {
      listening = null;
      meter.value = 0;
      showButtons();
      if (closed || ended) return;
      if (!rec) {
        if (typing) return;
        setVoiceState('Not listening');
        status.textContent = "I didn't hear anything. Press Try again to answer out loud, or type your answer.";
        failedChunk = -1;
        return showButtons();
      }
      const index = nextChunk++;
      setVoiceState('Thinking…');
      try {
        await voice.upload(rec.blob, index, Math.max(0, Math.round(clockOffset + rec.startedAt)));
        frame({ type: 'voice_answer', chunk_index: index });
      } catch {
        failedChunk = index;
        setVoiceState('Not listening');
        status.textContent = 'Your answer could not be sent. Check your connection, then press Try again, or type it.';
        showButtons();
      }
    });
  };

  const submit = () => {
    const text = answer.value.trim();
    if (!text || (awaiting !== 'answer' && awaiting !== 'observe')) return;
    unconfirmed = { text, awaiting };
    frame({ type: 'answer', text });
    answer.value = '';
    failedChunk = null;
    // A note while observing leaves them observing (the bar says it was noted); an answer waits for the next question.
    if (awaiting === 'answer') setAwaiting(null);
    else {
      lastNote = text.length > 60 ? `${text.slice(0, 57).trimEnd()}…` : text;
      reply = null;
      showButtons();
    }
  };
  /** What was sent and what the conductor was waiting for, to put back if the frame is refused. */
  let unconfirmed: { text: string; awaiting: string | null } | null = null;
  send.addEventListener('click', submit);
  answer.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  });
  done.addEventListener('click', () => {
    frame({ type: 'observe_done' });
    setAwaiting(null);
  });
  const askToEnd = (asking: boolean) => {
    confirm.hidden = !asking;
    end.hidden = asking;
    (asking ? keepGoing : end).focus();
  };
  end.addEventListener('click', () => askToEnd(true));
  keepGoing.addEventListener('click', () => askToEnd(false));
  confirm.addEventListener('keydown', (e) => {
    // Escape here means "keep going", not "close the panel".
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    askToEnd(false);
  });
  endNow.addEventListener('click', () => {
    endNow.disabled = keepGoing.disabled = true;
    listening?.cancel();
    stopSpeaking();
    void hangUp().then(() => frame({ type: 'end' }));
  });
  stopAnswer.addEventListener('click', () => listening?.stop());
  mute.addEventListener('click', () => {
    muted = !muted;
    voice?.stream.getAudioTracks().forEach((t) => (t.enabled = !muted));
    mute.textContent = muted ? 'Unmute' : 'Mute';
    mute.setAttribute('aria-pressed', String(muted));
  });
  typeInstead.addEventListener('click', () => {
    typing = !typing;
    status.textContent = '';
    if (typing) {
      listening?.cancel();
      setVoiceState('Typing');
      showButtons();
      return answer.focus();
    }
    failedChunk = null;
    showButtons();
    startListening();
  });
  retry.addEventListener('click', () => {
    status.textContent = '';
    const chunk = failedChunk;
    failedChunk = null;
    showButtons();
    if (chunk === null || chunk < 0) return startListening();
    setVoiceState('Thinking…');
    frame({ type: 'voice_answer', chunk_index: chunk });
  });

  const onClick = (e: MouseEvent) => {
    const target = e.target as Element | null;
    if (awaiting !== 'observe' || !target || host.contains(target)) return;
    const el = allowedSelectors.length ? target.closest(allowedSelectors.join(',')) : target;
    if (el) frame({ type: 'event', event_type: 'click', event_line: describeClick(el), data: { pathname: location.pathname } });
  };
  document.addEventListener('click', onClick, true);

  /** The participant's words from the realtime call: their answer, when one is awaited and they are not typing. */
  const onParticipant = (text: string, startedAt: number) => {
    if (typing || awaiting !== 'answer' || closed || ended) return;
    setVoiceState('Thinking…');
    frame({ type: 'spoken_answer', text, started_ms: Math.max(0, Math.round(clockOffset + startedAt)) });
    setAwaiting(null);
  };

  /** Opens the realtime call once (it needs a talk segment, so at the first question); null when there is none. */
  const openCall = () =>
    (callOpening ??= (async () => {
      if (!voice?.realtime) return null;
      try {
        call = await voice.realtime({ onParticipant });
      } catch {
        status.textContent = 'The live voice call could not start, so each answer will be recorded on its own instead.';
        return null;
      }
      recording = recordContinuously(voice.stream, PIECE_MS, (blob, startedAt) => {
        const upload = voice.upload(blob, nextChunk++, Math.max(0, Math.round(clockOffset + startedAt))).catch(() => {});
        uploads.add(upload);
        void upload.finally(() => uploads.delete(upload));
      });
      stopLevel = levelMonitor(voice.stream, (v) => (meter.value = muted ? 0 : v));
      return call;
    })());

  /** Ends the call and sends the last recorded piece (for up to three seconds). */
  const hangUp = async () => {
    await recording?.stop();
    recording = null;
    await Promise.race([Promise.all(uploads), new Promise((r) => setTimeout(r, 3000))]);
    call?.close();
    stopLevel?.();
  };

  /** Says a conductor turn (one after another), showing it as the caption while it is spoken. */
  const say = (text: string, kind: string | undefined) => {
    speaking = speaking.then(async () => {
      if (closed) return;
      setVoiceState('Speaking…');
      caption.textContent = text;
      const through = call ?? (kind === 'ask' ? await openCall() : null);
      await (through ? through.say(text) : speak(text));
    });
  };

  const connect = () => {
    ws = new WebSocket(wsUrl);
    ws.onopen = () => {
      retries = 0;
      status.textContent = '';
      reconnectNow.hidden = true;
    };
    ws.onmessage = (ev) => {
      const f = JSON.parse(String(ev.data)) as Record<string, any>;
      if (f.type === 'hello') {
        log.replaceChildren();
        lastTurn = [];
        (f.messages as ConductorMessage[]).forEach(add);
        nextChunk = Math.max(nextChunk, Number(f.next_audio_chunk ?? 0));
      } else if (f.type === 'message') {
        add(f as unknown as ConductorMessage);
        if (voice && f.role === 'conductor') say(f.text, f.kind);
        if (awaiting === 'observe' && f.role === 'conductor') {
          reply = f.text;
          showButtons();
        }
      } else if (f.type === 'state') {
        unconfirmed = null;
        if (typeof f.elapsed_ms === 'number') clockOffset = f.elapsed_ms - performance.now();
        setAwaiting(f.finished ? null : f.awaiting, f.segment?.id);
      } else if (f.type === 'transcribing') setVoiceState('Thinking…');
      else if (f.type === 'error') {
        status.textContent = f.error;
        if (voice && typeof f.chunk_index === 'number') {
          // The recording is kept: try the transcription again, or type the answer.
          failedChunk = f.retryable ? f.chunk_index : null;
          setVoiceState('Not listening');
          if (!f.retryable) typing = true;
          showButtons();
        } else if (unconfirmed) {
          answer.value = unconfirmed.text;
          setAwaiting(unconfirmed.awaiting);
          unconfirmed = null;
        }
      } else if (f.type === 'ended' && !ended) {
        ended = true;
        listening?.cancel();
        setAwaiting(null);
        void speaking.then(hangUp).then(() => onEnded(closingTurn));
      }
    };
    // A server restart or a lost network: tried again, soon at first, then every 15 s for as long as the interview
    // can still be resumed (the conductor waits CONDUCTOR_GRACE_SECONDS, 5 minutes by default).
    ws.onclose = () => {
      if (ended || closed) return;
      if (retries >= MAX_RETRIES) {
        status.textContent = 'The connection was lost. Reload the page to carry on where you left off.';
        reconnectNow.hidden = true;
        return;
      }
      status.textContent = retries < QUICK_RETRIES ? 'Reconnecting…' : 'The connection was lost. Trying again…';
      reconnectNow.hidden = retries < QUICK_RETRIES;
      reconnecting = setTimeout(connect, Math.min(RETRY_CAP_MS, 500 * 2 ** retries++));
    };
  };
  reconnectNow.addEventListener('click', () => {
    if (reconnecting) clearTimeout(reconnecting);
    reconnectNow.hidden = true;
    status.textContent = 'Reconnecting…';
    connect();
  });
  // Back online: no need to wait for the next try.
  const online = () => ws?.readyState === WebSocket.CLOSED && !ended && !closed && reconnectNow.click();
  window.addEventListener('online', online);
  voiceBar.hidden = !voice;
  setAwaiting(null);
  connect();
  return {
    nodes: [task, log, voiceBar, compose, h('div', { class: 'vb-row' }, done), status, reconnectNow, h('div', { class: 'vb-row vb-end' }, end, confirm)],
    close() {
      closed = true;
      if (reconnecting) clearTimeout(reconnecting);
      window.removeEventListener('online', online);
      listening?.cancel();
      stopSpeaking();
      void hangUp();
      voice?.stream.getTracks().forEach((t) => t.stop());
      document.removeEventListener('click', onClick, true);
      ws?.close();
    },
  };
}
