import { transcribeHere } from './speech-model.ts';

/**
 * The transcriber process (forked by transcriber-client.ts): transcribes the files it is sent,
 * one message each, and exits when the server lets go of it.
 */
interface Job {
  id: number;
  ffmpeg: string;
  file: string;
  offsetMs: number;
  scratch: string;
}

process.on('message', (job: Job) => {
  transcribeHere(job.ffmpeg, job.file, job.offsetMs, job.scratch).then(
    (texts) => process.send?.({ id: job.id, texts }),
    (err: unknown) => process.send?.({ id: job.id, error: { code: (err as { code?: unknown }).code === 'media_unreadable' ? 'media_unreadable' : 'transcription_failed', message: err instanceof Error ? err.message : String(err) } }),
  );
});
process.on('disconnect', () => process.exit(0));
