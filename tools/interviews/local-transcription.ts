import type { Services } from '../../core/context.ts';
import { projectSettings } from '../settings/rows.ts';
import { RATE, samplesOf } from './audio-samples.ts';
import { pitchOf } from './speakers.ts';
import type { TimedText } from './transcription.ts';
import type { VoicedText } from './speech-model.ts';
import { transcriber } from './transcriber-client.ts';

/**
 * Offline speech-to-text, the default when no transcription service is configured (English
 * only). The built-in model (speech-model.ts) runs in a process of its own
 * (transcriber-client.ts), so the ~250 MB it holds while it works is given back once it has been
 * idle a minute, and the server's event loop never waits on it.
 */
export type { VoicedText };

/**
 * The speech in an audio file, as timed text: one entry per utterance (a pause of half a second
 * or more ends one; none is longer than 20 s). `offsetMs` is where the file starts in the recording.
 */
export const transcribeLocally = (ffmpeg: string, file: string, offsetMs: number, scratch: string): Promise<VoicedText[]> =>
  transcriber().transcribe({ ffmpeg, file, offsetMs, scratch });

/**
 * A service's timed text for a file, with the pitch of the voice in each entry's time (null
 * throughout if the file cannot be read again: the text is what matters).
 */
export async function withPitch(ffmpeg: string, file: string, offsetMs: number, scratch: string, texts: TimedText[]): Promise<VoicedText[]> {
  const samples = await samplesOf(ffmpeg, file, scratch).catch(() => null);
  if (!samples) return texts.map((t) => ({ ...t, pitch: null }));
  const at = (ms: number) => Math.max(0, Math.min(samples.length, Math.round(((ms - offsetMs) / 1000) * RATE)));
  const voiced: VoicedText[] = [];
  for (const t of texts) {
    voiced.push({ ...t, pitch: pitchOf(samples.subarray(at(t.start_ms), at(t.end_ms))) });
    await new Promise((resolve) => setImmediate(resolve)); // a few ms each: the server answers in between
  }
  return voiced;
}

/** Whether the built-in model can read a project's interview language (unset means English). */
const readsLanguage = (tag: string | null | undefined): boolean => !tag || /^en(-|$)/i.test(tag);

/** Why the built-in model cannot transcribe this project's recordings, or null when it can. */
export async function localTranscriptionRefusal(services: Services, projectId: string): Promise<string | null> {
  if (!services.config.models.localTranscription) return 'built-in transcription is off (LOCAL_TRANSCRIPTION=off)';
  const language = (await projectSettings(services.db.pool, projectId)).find((s) => s.key === 'interview_language')?.value;
  return readsLanguage(language) ? null : `built-in transcription reads English only, and this project's interview_language is ${language}`;
}
