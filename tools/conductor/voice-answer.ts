import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Services } from '../../core/context.ts';
import { AppError, DomainError, NotFoundError, UnavailableError } from '../../core/errors.ts';
import { downloadTo } from '../interviews/artifacts.ts';
import { modelAccess, recordKeyUse } from '../interviews/model-access.ts';
import { StepFailure } from '../interviews/pipeline.ts';
import { transcribeFile } from '../interviews/transcription.ts';
import { localTranscriptionRefusal, transcribeLocally } from '../interviews/local-transcription.ts';
import { tools } from '../interviews/media.ts';
import type { SpokenFrom } from './engine.ts';
import { mediaChunks } from '../interviews/rows.ts';

const EXTENSION: Record<string, string> = { 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/mp4': 'm4a', 'audio/mpeg': 'mp3', 'audio/wav': 'wav', 'audio/x-wav': 'wav' };

/**
 * The text of one recorded answer (an audio chunk of a voice interview), from the project's
 * transcription service or else the built-in model. Failures keep the recording: the
 * participant may retry or type.
 */
export async function transcribeAnswer(services: Services, interviewId: string, projectId: string, chunkIndex: number): Promise<{ text: string; spoken: SpokenFrom }> {
  const [chunk] = await mediaChunks.select(services.db.pool, `interview_id = $1 AND type = 'audio' AND chunk_index = $2`, [interviewId, chunkIndex]);
  if (!chunk) {
    throw new NotFoundError(`No recorded answer ${chunkIndex} in this interview`, { code: 'audio_chunk_not_found', action: 'POST /api/sdk/audio/upload with this chunk_index first' });
  }
  const { transcription, keyProblem } = await modelAccess(services, projectId);
  const refusal = transcription || keyProblem ? null : await localTranscriptionRefusal(services, projectId);
  if ((keyProblem && !transcription) || refusal) {
    throw new UnavailableError(`Spoken answers cannot be transcribed: ${keyProblem ? keyProblem.message : `no transcription service is configured, and ${refusal}`}`, {
      code: keyProblem?.code ?? 'transcription_unavailable',
      retryable: false,
      action: `Type the answer instead. ${keyProblem?.action ?? `To take spoken answers, set the project's openai_api_key or TRANSCRIPTION_URL on the server${services.config.models.localTranscription ? '' : ', or LOCAL_TRANSCRIPTION=on for English'}`}`,
    });
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'verbatim-answer-'));
  try {
    const file = path.join(dir, `answer-${chunkIndex}.${EXTENSION[chunk.mime_type.split(';')[0]] ?? 'webm'}`);
    let pieces;
    try {
      await downloadTo(services, chunk.storage_key, file, `audio chunk ${chunkIndex}`);
      if (transcription) {
        pieces = await transcribeFile(transcription, file, 0, { mime: chunk.mime_type, timeoutMs: services.config.voiceAnswerTimeoutSeconds * 1000 });
        await recordKeyUse(services, projectId, transcription, null);
      } else {
        const heard = await transcribeLocally(tools(services.config).ffmpeg, file, 0, dir, { urgent: true, timeoutMs: services.config.voiceAnswerTimeoutSeconds * 1000 });
        // Part of an answer left out would be taken for the whole of it: said again instead.
        if (heard.unclearSeconds > 0 && heard.unclearSeconds >= heard.speechSeconds / 3) {
          throw new DomainError('The answer could not be made out (unclear sound, or not in English: built-in transcription reads English only)', { code: 'transcription_unclear', retryable: true, action: 'Say it again clearly, or type the answer instead' });
        }
        pieces = heard.texts;
      }
    } catch (err) {
      if (!(err instanceof StepFailure)) throw err;
      if (transcription) await recordKeyUse(services, projectId, transcription, err.message);
      if (err.code === 'media_unreadable') {
        throw new DomainError('That recording could not be read as audio', { code: 'media_unreadable', retryable: false, action: 'Record the answer again, or type it instead' });
      }
      throw new AppError(502, `The answer could not be transcribed: ${err.message}`, {
        code: 'transcription_failed',
        retryable: err.retryable || err.code === 'transcription_provider_error',
        action: 'Try again, or type the answer instead; the recording is kept',
      });
    }
    const text = pieces.map((p) => p.text).join(' ').trim();
    if (!text) {
      throw new DomainError('No words were heard in that answer', { code: 'transcription_empty', retryable: true, action: 'Say it again, or type the answer instead' });
    }
    return { text: text.slice(0, 4000), spoken: { chunk_index: chunkIndex, started_ms: chunk.started_ms ?? null } };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
