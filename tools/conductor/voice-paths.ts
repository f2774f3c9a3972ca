import { z } from 'zod';
import type { Services } from '../../core/context.ts';
import type { StudyRow } from '../studies/record.ts';
import { modelAccess } from '../interviews/model-access.ts';
import { localTranscriptionRefusal, readsLanguage } from '../interviews/local-transcription.ts';

/**
 * Which voice interview the widget can offer for a study, and why not when it cannot.
 * `realtime`: a WebRTC call with the realtime model (a project key or the operator's
 * LLM_API_KEY, model REALTIME_MODEL) speaks the conductor's turns and transcribes the answers.
 * `transcription`: the browser speaks the conductor's turns and records each answer, which the
 * server transcribes (a project key, the operator's TRANSCRIPTION_URL, or else the built-in
 * English model).
 */
export const VoiceOption = z.object({
  available: z.boolean().describe('Whether the widget offers a voice interview beside text'),
  path: z.enum(['realtime', 'transcription']).nullable().describe('How voice runs: realtime = a WebRTC call with the realtime model; transcription = spoken turns in the browser, answers recorded and transcribed by the server'),
  reason: z.string().nullable().describe('Why voice is off, when it is'),
});
export type VoiceOption = z.output<typeof VoiceOption>;

const off = (reason: string): VoiceOption => ({ available: false, path: null, reason });

/** The study's settings.interview_mode: `text` keeps an interview to text; anything else allows voice. */
function studyAllowsVoice(study: Pick<StudyRow, 'settings_json'>): boolean {
  try {
    const settings = JSON.parse(study.settings_json ?? '{}') as { interview_mode?: unknown };
    return settings.interview_mode !== 'text';
  } catch {
    return true;
  }
}

/** What the project can do for voice, whatever the study: read once per project. `builtIn`: through the built-in English model. */
export async function projectVoice(services: Services, projectId: string): Promise<VoiceOption & { builtIn: boolean }> {
  const { transcription, llm, keyProblem } = await modelAccess(services, projectId);
  if (llm?.apiKey) return { available: true, path: 'realtime', reason: null, builtIn: false };
  if (transcription) return { available: true, path: 'transcription', reason: null, builtIn: false };
  if (keyProblem) return { ...off(`${keyProblem.message}. ${keyProblem.action}`), builtIn: false };
  const refusal = await localTranscriptionRefusal(services, projectId);
  if (!refusal) return { available: true, path: 'transcription', reason: null, builtIn: true };
  return { ...off(`No realtime model or transcription service, and ${refusal}: set the project's openai_api_key, or LLM_API_KEY or TRANSCRIPTION_URL on the server`), builtIn: false };
}

/** The page languages a study is shown in, when it names them. */
const studyLanguages = (study: Pick<StudyRow, 'visibility_json'>): string[] => {
  const languages = (study.visibility_json as { languages?: unknown } | null)?.languages;
  return Array.isArray(languages) ? languages.filter((l): l is string => typeof l === 'string') : [];
};

/**
 * The voice a study offers: the project's, unless the study keeps to text, or only the built-in
 * English model would transcribe and the study is shown on pages in other languages only.
 */
export function studyVoice(project: VoiceOption & { builtIn: boolean }, study: Pick<StudyRow, 'settings_json' | 'visibility_json'>): VoiceOption {
  if (!studyAllowsVoice(study)) return off('The study runs text interviews only (settings.interview_mode is "text")');
  const languages = studyLanguages(study);
  if (project.builtIn && languages.length > 0 && !languages.some(readsLanguage)) {
    return off(`Built-in transcription reads English only, and the study is shown in ${languages.join(', ')}: set the project's openai_api_key, or TRANSCRIPTION_URL on the server`);
  }
  return { available: project.available, path: project.path, reason: project.reason };
}
