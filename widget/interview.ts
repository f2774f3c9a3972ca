import { h } from './dom.ts';
import type { ConductorMessage } from './types.ts';

export interface InterviewView {
  nodes: Node[];
  close(): void;
}

/** What the participant clicked, in a few words, for the observe cues. */
function describeClick(el: Element): string {
  const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `clicked ${el.tagName.toLowerCase()}${text ? ` "${text}"` : ''}`;
}

/**
 * The live conversation: the conductor's messages and the participant's answers in a log
 * that screen readers announce, a composer for talk segments, "I'm done" for observe
 * segments, and page clicks recorded as cues while observing. Reconnects on its own.
 */
export function interviewView(wsUrl: string, host: Element, allowedSelectors: string[], onEnded: () => void): InterviewView {
  const log = h('div', { class: 'vb-log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
  const status = h('p', { class: 'vb-small', role: 'status' });
  const answer = h('textarea', { 'aria-label': 'Your answer', rows: '2', placeholder: 'Type your answer…' });
  const send = h('button', { type: 'button', class: 'vb-primary' }, 'Send');
  send.style.alignSelf = 'auto';
  const compose = h('div', { class: 'vb-compose' }, answer, send);
  const done = h('button', { type: 'button', class: 'vb-primary' }, "I'm done");
  const end = h('button', { type: 'button', class: 'vb-secondary' }, 'End interview');
  let awaiting: string | null = null;
  let ended = false;
  let closed = false;
  let ws: WebSocket | null = null;
  let retries = 0;

  const setAwaiting = (a: string | null) => {
    awaiting = a;
    compose.hidden = a !== 'answer';
    done.hidden = a !== 'observe';
    if (a === 'answer') answer.focus();
    if (a === 'observe') done.focus();
  };
  const add = (m: ConductorMessage) => {
    log.append(h('div', { class: `vb-msg vb-msg-${m.role}` }, h('span', { class: 'vb-sr' }, m.role === 'conductor' ? 'Interviewer: ' : 'You: '), m.text));
    log.scrollTop = log.scrollHeight;
  };
  const frame = (f: Record<string, unknown>) => ws?.readyState === WebSocket.OPEN && ws.send(JSON.stringify(f));
  /** What was sent and what the conductor was waiting for, to put back if the frame is refused. */
  let unconfirmed: { text: string; awaiting: string | null } | null = null;
  const submit = () => {
    const text = answer.value.trim();
    if (!text || awaiting !== 'answer') return;
    unconfirmed = { text, awaiting };
    frame({ type: 'answer', text });
    answer.value = '';
    setAwaiting(null);
  };
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
  end.addEventListener('click', () => frame({ type: 'end' }));

  const onClick = (e: MouseEvent) => {
    const target = e.target as Element | null;
    if (awaiting !== 'observe' || !target || host.contains(target)) return;
    const el = allowedSelectors.length ? target.closest(allowedSelectors.join(',')) : target;
    if (el) frame({ type: 'event', event_type: 'click', event_line: describeClick(el), data: { pathname: location.pathname } });
  };
  document.addEventListener('click', onClick, true);

  const connect = () => {
    ws = new WebSocket(wsUrl);
    ws.onopen = () => {
      retries = 0;
      status.textContent = '';
    };
    ws.onmessage = (ev) => {
      const f = JSON.parse(String(ev.data)) as Record<string, any>;
      if (f.type === 'hello') {
        log.replaceChildren();
        (f.messages as ConductorMessage[]).forEach(add);
      } else if (f.type === 'message') add(f as unknown as ConductorMessage);
      else if (f.type === 'state') {
        unconfirmed = null;
        setAwaiting(f.finished ? null : f.awaiting);
      } else if (f.type === 'error') {
        status.textContent = f.error;
        if (unconfirmed) {
          answer.value = unconfirmed.text;
          setAwaiting(unconfirmed.awaiting);
          unconfirmed = null;
        }
      }
      else if (f.type === 'ended' && !ended) {
        ended = true;
        setAwaiting(null);
        onEnded();
      }
    };
    ws.onclose = () => {
      if (ended || closed || retries >= 5) return;
      status.textContent = 'Reconnecting…';
      setTimeout(connect, 500 * 2 ** retries++);
    };
  };
  setAwaiting(null);
  connect();
  return {
    nodes: [log, compose, h('div', { class: 'vb-row' }, done, end), status],
    close() {
      closed = true;
      document.removeEventListener('click', onClick, true);
      ws?.close();
    },
  };
}
