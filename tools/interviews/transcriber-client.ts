import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StepFailure } from './pipeline.ts';
import type { VoicedText } from './speech-model.ts';

/** How long the transcriber process (and the model it holds) stays after its last file. */
const IDLE_MS = 60_000;
const ENTRY = fileURLToPath(new URL('./transcriber-process.ts', import.meta.url));

type Reply = { id: number; texts: VoicedText[] } | { id: number; error: { code: string; message: string } };
interface Waiting {
  resolve: (texts: VoicedText[]) => void;
  reject: (err: Error) => void;
}

/** The server's side of the transcriber process: started on the first file, stopped when idle. */
class Transcriber {
  private child: ChildProcess | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private next = 0;
  private idle: NodeJS.Timeout | null = null;

  transcribe(job: { ffmpeg: string; file: string; offsetMs: number; scratch: string }): Promise<VoicedText[]> {
    if (this.idle) clearTimeout(this.idle);
    const child = this.child ?? this.start();
    const id = this.next++;
    child.channel?.ref(); // a file is on its way: wait for it
    return new Promise<VoicedText[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      child.send({ id, ...job });
    }).finally(() => {
      if (this.waiting.size > 0) return;
      child.channel?.unref();
      (this.idle = setTimeout(() => this.stop(), IDLE_MS)).unref();
    });
  }

  private start(): ChildProcess {
    const child = fork(ENTRY, [], { execArgv: ['--disable-warning=ExperimentalWarning'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    // Idle, it never keeps the server running.
    child.unref();
    child.channel?.unref();
    child.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if ('texts' in reply) return waiter.resolve(reply.texts);
      waiter.reject(
        reply.error.code === 'media_unreadable'
          ? new StepFailure('media_unreadable', reply.error.message, { action: 'Record it again' })
          : new StepFailure('transcription_failed', `Built-in transcription failed: ${reply.error.message}`, { retryable: true }),
      );
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      for (const [id, waiter] of this.waiting) {
        this.waiting.delete(id);
        waiter.reject(new StepFailure('transcription_failed', `The built-in transcription process stopped (${signal ?? `exit ${code}`})`, { retryable: true }));
      }
    });
    this.child = child;
    return child;
  }

  /** Lets the process go: it exits when its channel closes, and its memory with it. */
  stop(): void {
    const child = this.child;
    this.child = null;
    if (child?.connected) child.disconnect();
  }
}

let one: Transcriber | null = null;
export const transcriber = (): Transcriber => (one ??= new Transcriber());
/** With the worker: the process goes, and starts again for the next file. */
export const stopTranscriber = (): void => one?.stop();
