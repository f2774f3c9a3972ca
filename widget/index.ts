import { ApiError, createApi, type Api } from './api.ts';
import { h, fromMarkup } from './dom.ts';
import { ICONS } from './icons.ts';
import { stylesFor } from './styles.ts';
import { createPanel, inviteView, type Panel } from './panel.ts';
import { consentView, type ConsentChoice } from './consent.ts';
import { intakeView } from './intake.ts';
import { interviewView, type InterviewView, type VoiceOptions } from './interview.ts';
import { MicrophoneUnavailable, openMicrophone } from './voice.ts';
import { openRealtimeCall } from './realtime.ts';
import type { Invitation, Placement, Question, Study } from './types.ts';

/** A live interview survives a reload of the page (same tab) through this record. */
interface Resume {
  sessionId: string;
  studyRef: string;
  sessionToken: string;
  mode?: Mode;
}

type Mode = 'voice' | 'text';

/** Offers voice beside text; voice needs the microphone, which the browser asks for next. */
function modeView(onChoose: (mode: Mode) => void): Node[] {
  const talk = h('button', { type: 'button', class: 'vb-primary' }, 'Talk');
  const type = h('button', { type: 'button', class: 'vb-secondary' }, 'Type');
  talk.addEventListener('click', () => onChoose('voice'));
  type.addEventListener('click', () => onChoose('text'));
  return [
    h('p', {}, 'How would you like to answer?'),
    h('p', { class: 'vb-small' }, 'If you talk, your browser will ask to use your microphone. The questions are read out and shown as text, and you can switch to typing at any time.'),
    h('div', { class: 'vb-choice' }, talk, type),
  ];
}

const script = (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[src*="/sdk/widget.js"]');

function boot(): void {
  if (!script) return;
  const src = new URL(script.src, location.href);
  const key = script.dataset.projectKey ?? src.searchParams.get('key');
  if (!key) return console.warn('[verbatim] the widget script needs data-project-key');
  const api = createApi(src.origin, key);
  const storeKey = `verbatim:${key}`;
  const resume = JSON.parse(sessionStorage.getItem(storeKey) ?? 'null') as Resume | null;
  const pathname = script.dataset.pathname ?? location.pathname;
  const language = script.dataset.language ?? (document.documentElement.lang || navigator.language || '');
  const direct = new URLSearchParams(location.search).get('verbatim_study');

  const run = async () => {
    if (resume) return mount(api, storeKey, await api.get<{ study: Study }>(`/api/sdk/study/${encodeURIComponent(resume.studyRef)}`).then((r) => r.study), resume);
    if (direct) {
      const { study } = await api.get<{ study: Study }>(`/api/sdk/study/${encodeURIComponent(direct)}`);
      if (study.invitation?.presentation_mode === 'direct_link') return mount(api, storeKey, study, null, true);
    }
    const qs = new URLSearchParams({ pathname, ...(language ? { language } : {}) });
    const placement = await api.get<Placement>(`/api/sdk/placement?${qs}`);
    if (placement.outcome !== 'match' || !placement.invitation || placement.invitation.presentation_mode === 'direct_link') return;
    const { study } = await api.get<{ study: Study }>(`/api/sdk/study/${encodeURIComponent(placement.study_ref!)}`);
    mount(api, storeKey, study, null);
  };
  run().catch((err: unknown) => {
    if (resume && err instanceof ApiError && err.status < 500) sessionStorage.removeItem(storeKey);
    console.warn('[verbatim]', err instanceof ApiError ? `${err.code ?? err.status}: ${err.message}` : err);
  });
}

/** The last line of a finished interview: what the participant can do now, not another thank-you. */
const FINISHED = 'You can close this panel.';

/** The panel's heading while the interview runs (a study's title is the team's, not the participant's). */
const INTERVIEW_HEADING = 'Interview';
/** The compact bar's heading while the participant does a task on the page. */
const TASK_HEADING = 'Your task';
/** The launcher's label while an interview is under way. */
const CONTINUE_LABEL = 'Continue interview';

const FALLBACK: Invitation = {
  launcher: { label: 'Share feedback', icon: 'feedback' },
  presentation_mode: 'passive',
  brand_color: { light: '#3355FF' },
  placement: { desktop: 'bottom-right', mobile: 'bottom-right' },
};

/** Draws the launcher (and teaser) in a shadow root and runs the participant's path through the panel. */
function mount(api: Api, storeKey: string, study: Study, resume: Resume | null, openNow = false): void {
  const inv = study.invitation ?? FALLBACK;
  const host = h('div', { id: 'verbatim-widget', 'data-study': study.handle });
  host.style.cssText = 'position:fixed;width:0;height:0;overflow:visible;z-index:2147483000;';
  const shadow = host.attachShadow({ mode: 'open' });
  const root = h('div', { class: 'vb' });
  shadow.append(h('style', {}, stylesFor(inv)), root);
  document.body.append(host);

  const launcher =
    inv.presentation_mode === 'direct_link'
      ? null
      : h('button', { type: 'button', class: 'vb-launcher', 'aria-haspopup': 'dialog', 'aria-expanded': 'false', 'data-style': inv.launcher.style ?? 'calm', 'data-shape': inv.launcher.shape ?? 'capsule' },
          fromMarkup(ICONS[inv.launcher.icon] ?? ICONS.feedback), h('span', {}, inv.launcher.label));
  let live: InterviewView | null = null;
  const panel: Panel = createPanel(inv, study.title, launcher, () => {});
  // A visitor who finished (or ended) this study's interview is not invited to it again: the launcher then says thanks.
  const doneKey = `${storeKey}:done:${study.ref}`;
  const takenPart = () => {
    try {
      return localStorage.getItem(doneKey) !== null;
    } catch {
      return false;
    }
  };
  const rememberTakenPart = () => {
    try {
      localStorage.setItem(doneKey, new Date().toISOString());
    } catch {
      // Storage refused (private mode, a blocked site): the invitation may come back, nothing else changes.
    }
  };
  // Nor is the note shown over an interview that a reload resumes (it would sit under the task bar).
  const teaser = inv.presentation_mode === 'contextual' && inv.panel && !takenPart() && !resume ? h('div', { class: 'vb-teaser', role: 'note' }, inv.panel.headline) : null;
  if (launcher) root.append(launcher);
  if (teaser) root.append(teaser);
  root.append(panel.root);

  const fail = (err: unknown) => {
    const message = err instanceof ApiError ? err.message : 'Something went wrong. Please try again later.';
    panel.show(h('p', { class: 'vb-error', role: 'alert' }, message));
  };
  const thanks = (text: string) => {
    panel.retitle('Thank you');
    panel.show(h('p', {}, text));
  };
  // A text interview's last turn (an answer to the participant's last words, then the closing) would
  // vanish with the conversation: the last screen keeps it, under the "Thank you" heading, with
  // nothing after it that says the same again.
  const closed = (lastTurn: string[]) => {
    panel.retitle('Thank you');
    const words = lastTurn.length ? lastTurn : ['Your answers have been sent.'];
    panel.show(...words.map((text) => h('p', {}, text)), h('p', { class: 'vb-small', role: 'status' }, FINISHED));
  };

  /** The microphone for a voice interview, or text with a plain-words reason when it cannot be had. */
  const microphone = async (): Promise<{ stream: MediaStream | null; notice: string | null }> => {
    try {
      return { stream: await openMicrophone(), notice: null };
    } catch (err) {
      const why = err instanceof MicrophoneUnavailable ? err.message : 'The microphone could not be started';
      return { stream: null, notice: `${why}, so we will continue in text. Nothing you said is lost.` };
    }
  };

  const voiceFor = (sessionId: string, stream: MediaStream): VoiceOptions => ({
    stream,
    realtime: study.voice?.path === 'realtime' ? (handlers) => openRealtimeCall(api, sessionId, stream, handlers) : undefined,
    async upload(blob, chunkIndex, startedMs) {
      const form = new FormData();
      form.set('session_id', sessionId);
      form.set('chunk_index', String(chunkIndex));
      form.set('started_ms', String(startedMs));
      form.set('audio', blob, `answer-${chunkIndex}.${blob.type.includes('mp4') ? 'm4a' : blob.type.includes('ogg') ? 'ogg' : 'webm'}`);
      await api.upload('/api/sdk/audio/upload', form);
    },
  });

  const startInterview = async (sessionId: string, sessionToken?: string, mode: Mode = 'text', stream: MediaStream | null = null, notice: string | null = null) => {
    // The page it runs on goes with the evidence (origin and path only; the server keeps no more): the path the
    // site gave the widget (data-pathname, as a single-page app or the demo page names its pages), else the address's.
    const named = script?.dataset.pathname;
    const url = location.origin + (named?.startsWith('/') ? named : location.pathname);
    const page = /^https?:$/.test(location.protocol) && url.length <= 2000 ? { page_url: url, ...(document.title.trim() ? { page_title: document.title.trim().slice(0, 300) } : {}) } : {};
    const started = await api.post<{ ws_url: string; session_token: string }>(`/api/sdk/conductor/${sessionId}/start`, { ...page, ...(sessionToken ? { session_token: sessionToken } : {}) });
    const voice = mode === 'voice' && stream ? voiceFor(sessionId, stream) : undefined;
    sessionStorage.setItem(storeKey, JSON.stringify({ sessionId, studyRef: study.ref, sessionToken: started.session_token, mode: voice ? 'voice' : 'text' } satisfies Resume));
    // The invitation's question no longer fits once the conversation runs: a neutral heading instead.
    panel.retitle(INTERVIEW_HEADING);
    // Closed mid-interview, the launcher says there is one to go back to.
    const label = launcher?.querySelector('span');
    if (label) label.textContent = CONTINUE_LABEL;
    live = interviewView(started.ws_url, host, study.allowed_selectors, (closing) => {
      sessionStorage.removeItem(storeKey);
      rememberTakenPart();
      if (label) label.textContent = inv.launcher.label;
      live?.close();
      live = null;
      closed(closing);
    }, voice, (observing) => {
      // While they do the task, the panel is a bar that leaves the page to them; "I'm done" brings it back.
      panel.compact(observing);
      panel.retitle(observing ? TASK_HEADING : INTERVIEW_HEADING);
    });
    panel.show(...(notice ? [h('p', { class: 'vb-small', role: 'status' }, notice)] : []), ...live.nodes);
    addEventListener('pagehide', () => {
      if (live) void api.post(`/api/sdk/conductor/${sessionId}/checkpoint`, { reason: 'pagehide', snapshot: { open: panel.isOpen() } }, { keepalive: true }).catch(() => {});
    });
  };

  const begin = async (consent: ConsentChoice) => {
    let screenerResponseId: string | undefined;
    if (study.intake_ref) {
      const { intake, questions } = await api.get<{ intake: { title: string; welcome_message: string | null }; questions: Question[] }>(`/api/sdk/screener/${encodeURIComponent(study.intake_ref)}`);
      const ref = encodeURIComponent(study.intake_ref);
      // Answers the server refuses (400) keep the form, with what to fix; any other failure ends as others do.
      const verdict = await new Promise<{ response_id: string; qualified: boolean; message: string }>((resolve, reject) =>
        panel.show(...intakeView(intake.title, intake.welcome_message, questions, async (answers) => {
          try {
            resolve(await api.post(`/api/sdk/screener/${ref}/respond`, { answers, consent_given: consent.consent_data_use, consent_recording: consent.consent_recording }));
          } catch (err) {
            if (err instanceof ApiError && err.status === 400) throw err;
            reject(err);
          }
        })),
      );
      if (!verdict.qualified) return thanks(verdict.message);
      screenerResponseId = verdict.response_id;
    }
    // Voice records the participant, so it is offered only with their consent to be recorded.
    let mode: Mode = study.voice?.available && consent.consent_recording ? await new Promise<Mode>((resolve) => panel.show(...modeView(resolve))) : 'text';
    const mic = mode === 'voice' ? await microphone() : { stream: null, notice: null };
    if (!mic.stream) mode = 'text';
    const { session } = await api.post<{ session: { id: string } }>('/api/sdk/sessions', { study_id: study.ref, interview_mode: mode, ...(screenerResponseId ? { screener_response_id: screenerResponseId } : {}) });
    // A text interview records nothing: agreeing to a voice recording that never happens is not stored as consent to one.
    await api.post(`/api/sdk/sessions/${session.id}/consent`, { ...consent, consent_recording: consent.consent_recording && mode === 'voice' });
    await startInterview(session.id, undefined, mode, mic.stream, mic.notice);
  };

  const showAlreadyTaken = () => (panel.retitle('Thank you'), panel.show(h('p', {}, 'You have already taken part in this interview.')));
  const showInvite = () => (panel.retitle(null), panel.show(...inviteView(inv, () => panel.show(...consentView(null, study.voice?.available ? 'voice' : null, (c) => (c.consent_data_use ? begin(c).catch(fail) : thanks('No problem. Thanks anyway!')))))));
  launcher?.addEventListener('click', () => {
    if (panel.isOpen()) return panel.close();
    if (teaser) teaser.hidden = true;
    if (!live) (takenPart() ? showAlreadyTaken : showInvite)();
    panel.open();
  });

  if (resume) {
    panel.open();
    const again = resume.mode === 'voice' ? microphone() : Promise.resolve({ stream: null, notice: null });
    again.then((mic) => startInterview(resume.sessionId, resume.sessionToken, mic.stream ? 'voice' : 'text', mic.stream, mic.notice)).catch((err) => {
      sessionStorage.removeItem(storeKey);
      fail(err);
    });
  } else if (openNow) {
    (takenPart() ? showAlreadyTaken : showInvite)();
    panel.open();
  }
}

boot();
