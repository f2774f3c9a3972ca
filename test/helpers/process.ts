import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/verbatim.ts');

export interface Spawned {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited(): Promise<number | null>;
  /** The signal that ended the process, once it has ended by one (null otherwise). */
  signal(): NodeJS.Signals | null;
}

/** Runs the command line as a user would (`npm start` runs `node bin/verbatim.ts start`). */
export function runCli(args: string[], env: Record<string, string>): Spawned {
  // Vitest puts Vite's BASE_URL ("/") into process.env; a user's shell has no such thing.
  const { BASE_URL: _vite, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...inherited, NODE_ENV: 'test', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  let endedBy: NodeJS.Signals | null = null;
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      endedBy = signal;
      resolve(code);
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited: () => exit,
    signal: () => endedBy,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const tick = setInterval(() => {
          if (pattern.test(out) || pattern.test(err)) {
            clearInterval(tick);
            resolve();
          } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
            clearInterval(tick);
            reject(new Error(`waiting for ${pattern}: exit=${child.exitCode}\nstdout:\n${out}\nstderr:\n${err}`));
          }
        }, 50);
      });
    },
  };
}

export async function runCliToEnd(args: string[], env: Record<string, string>) {
  const p = runCli(args, env);
  const code = await p.exited();
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}
