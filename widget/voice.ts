/**
 * The browser's side of a voice interview without a realtime model: the conductor's turns are
 * spoken with speechSynthesis, and each answer is recorded from the microphone until the
 * participant pauses (voice activity) or presses Done.
 */

/** Why the microphone could not be used, in words for the participant. */
export class MicrophoneUnavailable extends Error {}

export async function openMicrophone(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
    throw new MicrophoneUnavailable('This browser cannot record audio here');
  }
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
  } catch (err) {
    const name = (err as DOMException).name;
    if (name === 'NotAllowedError' || name === 'SecurityError') throw new MicrophoneUnavailable('The microphone was not allowed');
    if (name === 'NotFoundError' || name === 'OverconstrainedError') throw new MicrophoneUnavailable('No microphone was found on this device');
    throw new MicrophoneUnavailable('The microphone could not be started');
  }
}

/** Says `text` aloud; resolves when done. Without a voice (some headless or locked-down browsers) it resolves at once. */
export function speak(text: string): Promise<void> {
  const synth = typeof speechSynthesis === 'undefined' ? null : speechSynthesis;
  if (!synth || !synth.getVoices().length) return new Promise((r) => setTimeout(r, 300));
  return new Promise((resolve) => {
    // Some engines never fire `end`: give up after a generous reading time.
    const guard = setTimeout(resolve, 3000 + text.length * 90);
    const u = new SpeechSynthesisUtterance(text);
    u.onend = u.onerror = () => {
      clearTimeout(guard);
      resolve();
    };
    synth.speak(u);
  });
}

export function stopSpeaking(): void {
  if (typeof speechSynthesis !== 'undefined') speechSynthesis.cancel();
}

export interface Listening {
  /** The recording, or null when nothing was said before the participant stopped or the time ran out. */
  done: Promise<{ blob: Blob; startedAt: number; heard: boolean } | null>;
  /** Ends the answer now (the Done button). */
  stop(): void;
  /** Throws the recording away. */
  cancel(): void;
}

export interface ListenOptions {
  /** Called about 20 times a second with the input level, 0 to 1. */
  onLevel(level: number): void;
  /** Called once when speech is first heard. */
  onSpeech(): void;
  /** A pause this long after speech ends the answer. */
  pauseMs: number;
  /** With no speech for this long, listening stops and nothing is kept. */
  giveUpMs: number;
}

const SPEECH_LEVEL = 0.04;

/** Records one answer from `stream`. `startedAt` is performance.now() when recording began. */
export function listen(stream: MediaStream, opts: ListenOptions): Listening {
  const recorder = new MediaRecorder(stream, recorderMime() ? { mimeType: recorderMime() } : {});
  const parts: Blob[] = [];
  const startedAt = performance.now();
  let heard = false;
  let lastSound = startedAt;
  let keep = true;
  const end = () => recorder.state !== 'inactive' && recorder.stop();
  const stopMonitor = levelMonitor(stream, (level) => {
    opts.onLevel(level);
    const now = performance.now();
    if (level >= SPEECH_LEVEL) {
      if (!heard) opts.onSpeech();
      heard = true;
      lastSound = now;
    } else if (heard && now - lastSound >= opts.pauseMs) end();
    else if (!heard && now - startedAt >= opts.giveUpMs) {
      keep = false;
      end();
    }
  });
  recorder.ondataavailable = (e) => e.data.size && parts.push(e.data);
  const done = new Promise<{ blob: Blob; startedAt: number; heard: boolean } | null>((resolve) => {
    recorder.onstop = () => {
      stopMonitor();
      resolve(keep && parts.length ? { blob: new Blob(parts, { type: recorder.mimeType || 'audio/webm' }), startedAt, heard } : null);
    };
  });
  recorder.start();
  return {
    done,
    stop: end,
    cancel() {
      keep = false;
      end();
    },
  };
}

/** The first recording format this browser supports (Chromium and Firefox: WebM/Opus, Safari: MP4). */
const recorderMime = () => ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'].find((m) => MediaRecorder.isTypeSupported(m));

/** Reports the input level (0 to 1) about 20 times a second until stopped. */
export function levelMonitor(stream: MediaStream, onLevel: (level: number) => void): () => void {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const v of samples) sum += v * v;
    onLevel(Math.min(1, Math.sqrt(sum / samples.length) * 4));
  }, 50);
  return () => {
    clearInterval(timer);
    void context.close();
  };
}

/**
 * Records `stream` in self-contained pieces of `pieceMs` (the recorder restarts for each, so
 * every piece has its own header) and hands each over with performance.now() at its start.
 * `stop()` ends the running piece and hands it over too.
 */
export function recordContinuously(stream: MediaStream, pieceMs: number, onPiece: (blob: Blob, startedAt: number) => void): { stop(): Promise<void> } {
  const mime = recorderMime();
  let stopped = false;
  let current: MediaRecorder | null = null;
  let finished: (() => void) | null = null;
  const next = () => {
    if (stopped) return finished?.();
    const recorder = new MediaRecorder(stream, mime ? { mimeType: mime } : {});
    const parts: Blob[] = [];
    const startedAt = performance.now();
    recorder.ondataavailable = (e) => e.data.size && parts.push(e.data);
    recorder.onstop = () => {
      if (parts.length) onPiece(new Blob(parts, { type: recorder.mimeType || 'audio/webm' }), startedAt);
      next();
    };
    recorder.start();
    current = recorder;
    setTimeout(() => recorder.state !== 'inactive' && recorder.stop(), pieceMs);
  };
  next();
  return {
    stop() {
      stopped = true;
      if (!current || current.state === 'inactive') return Promise.resolve();
      const last = new Promise<void>((r) => (finished = r));
      current.stop();
      return last;
    },
  };
}
