import fs from 'node:fs/promises';
import path from 'node:path';
import type { TaskFactory } from '../runner.ts';
import { runStep } from '../../tools/interviews/steps.ts';
import { StepFailure, afterMedia, hasTranscript } from '../../tools/interviews/pipeline.ts';
import { probe, run, tools } from '../../tools/interviews/media.ts';
import { sceneFrames } from '../../tools/interviews/scene-frames.ts';
import { downloadTo, dropStaleArtifacts, recordArtifact, storeFile } from '../../tools/interviews/artifacts.ts';
import { timedMerge } from '../../tools/interviews/timed-merge.ts';
import { artifacts, interviews, mediaChunks } from '../../tools/interviews/rows.ts';

/**
 * Media derivation: merges recorded chunks, then from the source media takes the duration,
 * a 16 kHz mono audio track for transcription, and representative video frames (its scene
 * changes), whose text the next step reads.
 */
export const task: TaskFactory = (services) => async (payload, helpers) => {
  const { interviewId } = payload as { interviewId: string };
  const bin = tools(services.config);
  await runStep(services, interviewId, 'deriving_media', helpers, async ({ interview, scratch, warn }) => {
    const dir = await scratch();
    const pool = services.db.pool;
    const stored: Array<Parameters<typeof recordArtifact>[2]> = [];
    const keep = async (file: string, name: string, kind: string, mime: string, meta?: Record<string, unknown>) => {
      const obj = await storeFile(services, interview.project_id, interview.id, file, name, mime);
      stored.push({ name, kind, storage_key: obj.key, mime_type: mime, size: obj.size, meta: meta ?? null });
      return file;
    };

    // Chunks recorded by the widget become one file per track.
    const sources = new Map<string, string>();
    for (const type of ['audio', 'screen'] as const) {
      const chunks = await mediaChunks.select(pool, 'interview_id = $1 AND type = $2', [interview.id, type], 'ORDER BY chunk_index');
      if (!chunks.length) continue;
      if (type === 'audio' && chunks.some((c) => c.started_ms !== null)) {
        // Voice answers recorded apart: placed on the interview's clock, silence between.
        const merged = await timedMerge(services, bin.ffmpeg, chunks, dir).catch((err: Error) => {
          if (err instanceof StepFailure) throw err;
          throw new StepFailure('media_merge_failed', `The recorded audio chunks could not be merged: ${err.message}`, { retryable: false, action: 'POST P/sessions/:id/retry-media-merge after re-uploading the chunks' });
        });
        sources.set('source-audio', await keep(merged, 'merged-audio', 'merged_audio', 'audio/mpeg'));
        continue;
      }
      const list: string[] = [];
      for (const c of chunks) {
        const f = path.join(dir, `${type}-${c.chunk_index}.webm`);
        await downloadTo(services, c.storage_key, f, `${type}-chunk-${c.chunk_index}`);
        list.push(`file '${f}'`);
      }
      const listFile = path.join(dir, `${type}.txt`);
      await fs.writeFile(listFile, list.join('\n'));
      const merged = path.join(dir, `merged-${type}.webm`);
      await run(bin.ffmpeg, ['-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', listFile, '-c', 'copy', merged]).catch((err: Error) => {
        throw new StepFailure('media_merge_failed', `The recorded ${type} chunks could not be merged: ${err.message}`, { retryable: false, action: 'POST P/sessions/:id/retry-media-merge after re-uploading the chunks' });
      });
      sources.set(type === 'audio' ? 'source-audio' : 'source-video', await keep(merged, `merged-${type}`, `merged_${type}`, type === 'audio' ? 'audio/webm' : 'video/webm'));
    }

    for (const a of await artifacts.select(pool, 'interview_id = $1 AND kind = $2', [interview.id, 'source'])) {
      const f = path.join(dir, a.name);
      await downloadTo(services, a.storage_key, f, a.name);
      sources.set(a.name, f);
    }
    if (!sources.size) {
      return { finish: (sql) => afterMedia(sql, interview.id) };
    }

    const probed = new Map<string, Awaited<ReturnType<typeof probe>>>();
    for (const [name, f] of sources) {
      probed.set(name, await probe(bin.ffprobe, f).catch(() => {
        throw new StepFailure('media_unreadable', `${name} is not a readable audio or video file`, { action: 'Upload the recording again' });
      }));
    }
    const pick = (names: string[], want: 'hasAudio' | 'hasVideo') => names.find((n) => sources.has(n) && probed.get(n)![want]);
    const audioFrom = pick(['source-audio', 'source-media', 'source-video'], 'hasAudio');
    const videoFrom = pick(['source-video', 'source-media'], 'hasVideo');
    if (!audioFrom && !videoFrom) throw new StepFailure('no_audio_track', 'The recording has no sound to transcribe', { action: 'Upload a recording with an audio track' });
    // A silent screen recording still shows what was on screen: its text is read, and the missing sound is a warning.
    // A chat interview that recorded the screen has its transcript already: nothing is missing.
    if (!audioFrom && !(await hasTranscript(pool, interview.id))) {
      await warn({ code: 'no_audio_track', message: 'The recording has no sound: the text on screen is read, but there is no transcript and no evidence from what was said', action: 'Upload a recording with an audio track, or import a transcript, for evidence from speech' });
    }

    let duration = videoFrom ? probed.get(videoFrom)!.durationSeconds : null;
    if (audioFrom) {
      const audio = path.join(dir, 'audio.mp3');
      await run(bin.ffmpeg, ['-v', 'error', '-y', '-i', sources.get(audioFrom)!, '-vn', '-ac', '1', '-ar', '16000', '-b:a', '32k', '-f', 'mp3', audio]);
      await keep(audio, 'audio', 'derived_audio', 'audio/mpeg');
      duration = (await probe(bin.ffprobe, audio)).durationSeconds ?? probed.get(audioFrom)!.durationSeconds;
    }

    const frames = videoFrom ? await sceneFrames(bin.ffmpeg, sources.get(videoFrom)!, dir, probed.get(videoFrom)!.durationSeconds) : [];
    for (const [i, f] of frames.entries()) await keep(f.file, `frame-${i + 1}`, 'frame', 'image/jpeg', { timestamp_ms: f.timestampMs, until_ms: f.untilMs });

    return {
      finish: async (sql) => {
        for (const a of stored) await recordArtifact(services, interview.id, a, sql);
        await dropStaleArtifacts(services, interview.id, 'frame', stored.map((a) => a.name), sql);
        // A WebM says it may hold video before it is read: one that holds only sound is a voice interview.
        await interviews.update(sql, interview.id, { duration_seconds: duration, ...(interview.interview_mode === 'video' && !videoFrom ? { interview_mode: 'voice' } : {}) });
        if (frames.length) return 'reading_screen';
        return afterMedia(sql, interview.id);
      },
    };
  });
};
