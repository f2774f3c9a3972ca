import { expect } from 'vitest';
import { runCli } from './process.ts';

/** Runs `start` as a user does and expects it to refuse: exit code 1, the reason on stderr (returned). */
export async function refusedStart(env: Record<string, string>): Promise<string> {
  const p = runCli(['start'], { PORT: '0', WORKER: 'off', LOG_LEVEL: 'warn', ENCRYPTION_KEY: '', ENCRYPTION_KEYS_PREVIOUS: '', ...env });
  const outcome = await Promise.race([p.exited(), p.waitFor(/Verbatim is running/).then(() => 'running' as const, () => 'exited' as const)]);
  if (outcome === 'running') {
    p.child.kill('SIGINT');
    await p.exited();
    throw new Error(`start was expected to refuse but runs:\n${p.stderr()}`);
  }
  expect(await p.exited()).toBe(1);
  return p.stderr();
}
