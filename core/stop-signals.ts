/**
 * SIGINT (Ctrl-C) and SIGTERM for the long-running commands, caught from the first moment the
 * service process runs code of its own (`bin/verbatim.ts`). Until a process has a listener for a
 * signal, Node leaves it at the system default, which ends the process on the spot: a Ctrl-C
 * while starting, or just after the banner, used to end the process by the signal and leave its
 * embedded Postgres running. A signal that comes before `start()` is ready for it is kept and
 * handed over when it subscribes.
 *
 * Still uncaught, unavoidably: the launcher before it replaces itself (execve resets handlers)
 * and Node's own bootstrap. Nothing has been started then, so nothing is left behind.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

const received: StopSignal[] = [];
let handler: ((signal: StopSignal) => void) | null = null;
let caught = false;

export function catchStopSignals(): void {
  if (caught) return;
  caught = true;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => (handler ? handler(signal) : received.push(signal)));
  }
}

/** From now on every stop signal goes to `fn`; those received before are handed to it at once, in order. */
export function onStopSignal(fn: (signal: StopSignal) => void): void {
  catchStopSignals();
  handler = fn;
  for (const signal of received.splice(0)) fn(signal);
}
