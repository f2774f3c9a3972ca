import type { Services } from '../../core/context.ts';
import { projectSettings } from '../settings/rows.ts';
import { RATE, samplesOf } from './audio-samples.ts';
import { MIN_UTTERANCES, pitchOf } from './speakers.ts';
import type { TimedText } from './transcription.ts';
import type { Heard, VoicedText } from './speech-model.ts';
import { transcriber } from './transcriber-client.ts';

/**
 * Offline speech-to-text, the default when no transcription service is configured (English
 * only). The built-in model (speech-model.ts) runs in a process of its own
 * (transcriber-client.ts), so the ~250 MB it holds while it works is given back once it has been
 * idle a minute, and the server's event loop never waits on it.
 */
export type { Heard, VoicedText };

/** A ten-minute piece takes about 15 s here; a process that has not answered in ten minutes is stuck. */
const PIECE_TIMEOUT_MS = 10 * 60_000;
/** The first seconds of a service's entry tell its voice; reading at most that keeps each step under ~20 ms. */
const PITCH_SPAN_SECONDS = 8;

/**
 * The speech in an audio file, as timed text: one entry per utterance (a pause of half a second
 * or more ends one; each is at most about 20 s), leaving out what the model could not make out.
 * `offsetMs` is where the file starts in the recording.
 */
export const transcribeLocally = (ffmpeg: string, file: string, offsetMs: number, scratch: string, opts: { urgent?: boolean; timeoutMs?: number } = {}): Promise<Heard> =>
  transcriber().transcribe({ ffmpeg, file, offsetMs, scratch, urgent: opts.urgent, timeoutMs: opts.timeoutMs ?? PIECE_TIMEOUT_MS });

/**
 * A service's timed text for a file, with the pitch of the voice in each entry's time (null
 * throughout if the file cannot be read again: the text is what matters).
 */
export async function withPitch(ffmpeg: string, file: string, offsetMs: number, scratch: string, texts: TimedText[]): Promise<VoicedText[]> {
  const none = () => texts.map((t) => ({ ...t, pitch: null }));
  if (texts.length < MIN_UTTERANCES) return none(); // too few to tell voices apart (a service that returns one text per file)
  const samples = await samplesOf(ffmpeg, file, scratch).catch(() => null);
  if (!samples) return none();
  const at = (ms: number) => Math.max(0, Math.min(samples.length, Math.round(((ms - offsetMs) / 1000) * RATE)));
  const voiced: VoicedText[] = [];
  for (const t of texts) {
    const from = at(t.start_ms);
    voiced.push({ ...t, pitch: pitchOf(samples.subarray(from, Math.min(at(t.end_ms), from + PITCH_SPAN_SECONDS * RATE))) });
    await new Promise((resolve) => setImmediate(resolve)); // the server answers in between
  }
  return voiced;
}

/** Whether the built-in model can read a project's interview language (unset means English). */
export const readsLanguage = (tag: string | null | undefined): boolean => !tag || /^eng?(-|$)/i.test(tag);

/** Why the built-in model cannot transcribe this project's recordings, or null when it can. */
export async function localTranscriptionRefusal(services: Services, projectId: string): Promise<string | null> {
  if (!services.config.models.localTranscription) return 'built-in transcription is off (LOCAL_TRANSCRIPTION=off)';
  const language = (await projectSettings(services.db.pool, projectId)).find((s) => s.key === 'interview_language')?.value;
  return readsLanguage(language) ? null : `built-in transcription reads English only, and this project's interview_language is ${language}`;
}
