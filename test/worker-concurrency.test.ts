import { describe, expect, it } from 'vitest';
import { ConfigError, defaultWorkerConcurrency, loadConfig } from '../core/config.ts';

describe('worker concurrency', () => {
  it('defaults to six jobs per core, at least 4 and at most 16, and WORKER_CONCURRENCY overrides it', () => {
    expect([1, 2, 3, 8].map((cores) => defaultWorkerConcurrency(cores))).toEqual([6, 12, 16, 16]);
    expect(loadConfig({}).workerConcurrency).toBe(defaultWorkerConcurrency());
    expect(loadConfig({ WORKER_CONCURRENCY: '3' }).workerConcurrency).toBe(3);
    for (const bad of ['0', '-1', 'many', '1.5']) expect(() => loadConfig({ WORKER_CONCURRENCY: bad })).toThrow(ConfigError);
  });
});
