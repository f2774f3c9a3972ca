import { transcribeHere } from './speech-model.ts';

/**
 * The transcriber process (forked by transcriber-client.ts): transcribes the files it is sent one
 * at a time (so memory holds one file's samples, whatever the worker's concurrency), a
 * participant's answer before recordings, and exits when the server lets go of it.
 */
interface Job {
  id: number;
  ffmpeg: string;
  file: string;
  offsetMs: number;
  scratch: string;
  urgent?: boolean;
}

const queue: Job[] = [];
let busy = false;

async function work(): Promise<void> {
  if (busy) return;
  busy = true;
  for (let job = queue.shift(); job; job = queue.shift()) {
    try {
      process.send?.({ id: job.id, heard: await transcribeHere(job.ffmpeg, job.file, job.offsetMs, job.scratch) });
    } catch (err) {
      const code = (err as { code?: unknown }).code === 'media_unreadable' ? 'media_unreadable' : 'transcription_failed';
      process.send?.({ id: job.id, error: { code, message: err instanceof Error ? err.message : String(err) } });
    }
  }
  busy = false;
}

process.on('message', (job: Job) => {
  // An answer goes after the answers already waiting, before any recording.
  const at = job.urgent ? queue.findIndex((j) => !j.urgent) : -1;
  queue.splice(at === -1 ? queue.length : at, 0, job);
  void work();
});
process.on('disconnect', () => process.exit(0));
