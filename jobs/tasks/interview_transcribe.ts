import fs from 'node:fs/promises';
import path from 'node:path';
import type { TaskFactory } from '../runner.ts';
import type { Services } from '../../core/context.ts';
import { runStep } from '../../tools/interviews/steps.ts';
import { StepFailure, hasTranscript } from '../../tools/interviews/pipeline.ts';
import { probe, run, tools } from '../../tools/interviews/media.ts';
import { downloadTo } from '../../tools/interviews/artifacts.ts';
import { CONFIGURE_TRANSCRIPTION, modelAccess, recordKeyUse } from '../../tools/interviews/model-access.ts';
import { transcribeFile } from '../../tools/interviews/transcription.ts';
import { rolesByVoice } from '../../tools/interviews/speakers.ts';
import { localTranscriptionRefusal, transcribeLocally, withPitch, type Heard, type VoicedText } from '../../tools/interviews/local-transcription.ts';
import { newId } from '../../core/ids.ts';
import { artifacts, insertSegments, interviews } from '../../tools/interviews/rows.ts';

/** Ten-minute pieces keep every request well under provider upload limits. */
const PIECE_SECONDS = 600;

/** The recording's own sound, as uploaded or merged from the widget's chunks (the first of these that has an audio track), or null. */
async function originalSound(services: Services, interviewId: string, dir: string): Promise<string | null> {
  const bin = tools(services.config);
  const kept = await artifacts.select(services.db.pool, "interview_id = $1 AND name = ANY($2::text[])", [interviewId, ORIGINALS]);
  for (const name of ORIGINALS) {
    const a = kept.find((x) => x.name === name);
    if (!a) continue;
    const file = path.join(dir, `original-${name}`);
    await downloadTo(services, a.storage_key, file, name);
    if ((await probe(bin.ffprobe, file).catch(() => null))?.hasAudio) return file;
    await fs.rm(file, { force: true });
  }
  return null;
}
const ORIGINALS = ['source-audio', 'merged-audio', 'source-media', 'source-video'];
/** A transcript line where the built-in model heard speech it could not make out. */
const UNCLEAR_SPEECH = '[unclear speech]';

export const task: TaskFactory = (services) => async (payload, helpers) => {
  // `again`: a processed recording transcribed anew on request; its transcript is replaced only once the new one is made.
  const { interviewId, again } = payload as { interviewId: string; again?: boolean };
  const bin = tools(services.config);
  await runStep(services, interviewId, 'transcribing', helpers, async ({ interview, scratch, warn }) => {
    const pool = services.db.pool;
    if (!again && (await hasTranscript(pool, interview.id))) {
      return { finish: async () => 'extracting' }; // imported or already transcribed
    }
    const [audio] = await artifacts.select(pool, 'interview_id = $1 AND name = $2', [interview.id, 'audio']);
    if (!audio) {
      // Frames with no audio beside them are a silent screen recording (deriving_media warned of it): nothing to transcribe.
      const [screen] = await artifacts.select(pool, 'interview_id = $1 AND kind = $2', [interview.id, 'frame']);
      if (screen) return { finish: async () => 'extracting' };
      throw new StepFailure('no_audio', 'There is no audio to transcribe', { action: 'Upload a recording or import a transcript' });
    }
    const { transcription: endpoint, keyProblem } = await modelAccess(services, interview.project_id);
    if (keyProblem && !endpoint) throw new StepFailure(keyProblem.code, `${keyProblem.message}, so the recording cannot be transcribed`, { action: keyProblem.action });
    if (keyProblem) await warn({ code: keyProblem.code, message: `${keyProblem.message}; the operator's transcription service (TRANSCRIPTION_URL) was used instead`, action: keyProblem.action });
    const refusal = endpoint ? null : await localTranscriptionRefusal(services, interview.project_id);
    if (refusal) throw new StepFailure('transcription_unconfigured', `No transcription service is configured for this project, and ${refusal}`, { action: CONFIGURE_TRANSCRIPTION });
    const dir = await scratch();
    const transcribe = endpoint
      ? async (file: string, offset: number): Promise<Heard> => ({ texts: await withPitch(bin.ffmpeg, file, offset, dir, await transcribeFile(endpoint, file, offset)), unclearSeconds: 0, speechSeconds: 0, unclear: [] })
      : (file: string, offset: number): Promise<Heard> => transcribeLocally(bin.ffmpeg, file, offset, dir);
    // The built-in model hears a recording as made: the 32 kbit/s audio kept for playback loses enough that it made out a fifth
    // less of a clear two-voice recording. Pieces are cut from the original, as 16 kHz WAV (what the model reads); a service gets MP3.
    const original = endpoint ? null : await originalSound(services, interview.id, dir);
    const file = original ?? path.join(dir, 'audio.mp3');
    if (!original) await downloadTo(services, audio.storage_key, file, 'audio');
    const cut = original ? ['-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le'] : ['-c', 'copy'];
    await run(bin.ffmpeg, ['-v', 'error', '-y', '-i', file, '-f', 'segment', '-segment_time', String(PIECE_SECONDS), ...cut, path.join(dir, `piece-%04d.${original ? 'wav' : 'mp3'}`)]);
    const pieces = (await fs.readdir(dir)).filter((f) => f.startsWith('piece-')).sort();
    await interviews.save(pool, interview, { transcription_total: pieces.length, transcription_completed: 0 });
    const texts: VoicedText[] = [];
    const marks: VoicedText[] = [];
    let [unclear, speech] = [0, 0];
    let offset = 0;
    for (const [i, piece] of pieces.entries()) {
      const full = path.join(dir, piece);
      try {
        const heard = await transcribe(full, offset);
        texts.push(...heard.texts);
        // Where speech was not made out is marked, so a researcher knows where to listen (never read as words or evidence).
        marks.push(...heard.unclear.map((u) => ({ ...u, text: UNCLEAR_SPEECH, pitch: null })));
        unclear += heard.unclearSeconds;
        speech += heard.speechSeconds;
      } catch (err) {
        if (endpoint) await recordKeyUse(services, interview.project_id, endpoint, err instanceof Error ? err.message : 'transcription failed');
        throw err;
      }
      offset += Math.round(((await probe(bin.ffprobe, full)).durationSeconds ?? PIECE_SECONDS) * 1000);
      await interviews.save(pool, interview, { transcription_completed: i + 1 });
    }
    if (endpoint) await recordKeyUse(services, interview.project_id, endpoint, null);
    // The built-in model leaves out what it cannot make out rather than guess: a tenth or more of the speech left out is said.
    if (unclear > 0 && unclear >= speech / 10) {
      await warn({
        code: 'speech_unclear',
        message: `The built-in model could not make out ${Math.round((unclear / speech) * 100)} % of the speech (${Math.round(unclear)} s), so that part has no transcript and no evidence: the sound is unclear there, or it is not English (the built-in model reads English only)`,
        action: `If the interview is not in English, set interview_language and a transcription service (openai_api_key or TRANSCRIPTION_URL), then POST P/sessions/${interview.id}/retry-transcription; if the sound is poor, import a transcript instead`,
      });
    } else if (texts.length === 0) {
      await warn({ code: 'no_speech_heard', message: 'No speech was heard in the recording, so it has no transcript and no evidence', action: 'Check that the recording has the participant\'s voice, or import a transcript' });
    }
    return {
      finish: async (sql) => {
        await sql.query('DELETE FROM transcript_segments WHERE interview_id = $1', [interview.id]);
        // Who spoke, when two voices are clearly apart (transcription services give no speakers).
        const roles = rolesByVoice(texts);
        const heard = texts.map((t, i) => ({ ...t, role: roles?.[i] ?? ('unknown' as const) }));
        const all = [...heard, ...marks.map((m) => ({ ...m, role: 'unknown' as const }))].sort((a, b) => a.start_ms - b.start_ms);
        await insertSegments(sql, interview.id, all.map((t) => ({ id: newId('seg'), speaker: null, role: t.role, start_ms: t.start_ms, end_ms: t.end_ms, text: t.text })));
        // Says how the text was made: the built-in model hears less well than a service.
        await interviews.save(sql, interview, { transcript_format: endpoint ? 'speech:service' : 'speech:built_in' });
        return 'extracting';
      },
    };
  });
};
