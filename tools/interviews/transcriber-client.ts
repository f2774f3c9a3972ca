import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StepFailure } from './pipeline.ts';
import type { Heard } from './speech-model.ts';

/** How long the transcriber process (and the model it holds) stays after its last file. */
const IDLE_MS = 60_000;
const ENTRY = fileURLToPath(new URL('./transcriber-process.ts', import.meta.url));

export interface Job {
  ffmpeg: string;
  file: string;
  offsetMs: number;
  scratch: string;
  /** A participant waiting for their answer to be heard goes before recordings being processed. */
  urgent?: boolean;
  /** Past this the process is taken for hung: it is killed, and every file it held fails as retryable. */
  timeoutMs: number;
}

type Reply = { id: number; heard: Heard } | { id: number; error: { code: string; message: string } };

interface Waiting {
  resolve: (heard: Heard) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** One transcriber process and the files it was sent. */
interface Worker {
  child: ChildProcess;
  waiting: Map<number, Waiting>;
}

const failed = (why: string) => new StepFailure('transcription_failed', `Built-in transcription failed: ${why}`, { retryable: true, action: 'Retry the transcription' });

/** The server's side of the transcriber process: started on the first file, stopped when idle. */
class Transcriber {
  private current: Worker | null = null;
  private next = 0;
  private idle: NodeJS.Timeout | null = null;

  transcribe(job: Job): Promise<Heard> {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.current?.child.connected ? this.current : this.start();
    const id = this.next++;
    worker.child.channel?.ref(); // a file is on its way: wait for it
    return new Promise<Heard>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(worker, failed(`no answer within ${Math.round(job.timeoutMs / 1000)} s`));
        worker.child.kill('SIGKILL');
      }, job.timeoutMs);
      worker.waiting.set(id, { resolve, reject, timer });
      const { timeoutMs: _, ...sent } = job;
      worker.child.send({ id, ...sent }, (err) => err && this.settle(worker, id, failed(err.message)));
    }).finally(() => {
      if (worker.waiting.size > 0) return;
      worker.child.channel?.unref();
      if (worker === this.current) (this.idle = setTimeout(() => this.stop(), IDLE_MS)).unref();
    });
  }

  private start(): Worker {
    const child = fork(ENTRY, [], { execArgv: ['--disable-warning=ExperimentalWarning'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const worker: Worker = { child, waiting: new Map() };
    // Idle, it never keeps the server running.
    child.unref();
    child.channel?.unref();
    child.on('message', (reply: Reply) => {
      if ('heard' in reply) return this.settle(worker, reply.id, reply.heard);
      this.settle(worker, reply.id, reply.error.code === 'media_unreadable' ? new StepFailure('media_unreadable', reply.error.message, { action: 'Upload or record it again' }) : failed(reply.error.message));
    });
    // A process that cannot start or has gone fails what it held; the next file starts another.
    child.on('error', (err) => this.fail(worker, failed(err.message)));
    child.on('exit', (code, signal) => this.fail(worker, failed(`the transcriber process stopped (${signal ?? `exit ${code}`})`)));
    this.current = worker;
    return worker;
  }

  private settle(worker: Worker, id: number, outcome: Heard | Error): void {
    const waiter = worker.waiting.get(id);
    if (!waiter) return;
    worker.waiting.delete(id);
    clearTimeout(waiter.timer);
    if (outcome instanceof Error) waiter.reject(outcome);
    else waiter.resolve(outcome);
  }

  private fail(worker: Worker, err: Error): void {
    if (this.current === worker) this.current = null;
    for (const id of [...worker.waiting.keys()]) this.settle(worker, id, err);
  }

  /** Lets the process go: it exits when its channel closes, and its memory with it. */
  stop(): void {
    const worker = this.current;
    this.current = null;
    if (worker?.child.connected) worker.child.disconnect();
  }
}

let one: Transcriber | null = null;
export const transcriber = (): Transcriber => (one ??= new Transcriber());
/** With the worker: the process goes, and starts again for the next file. */
export const stopTranscriber = (): void => one?.stop();
