import { createRequire } from 'node:module';

/**
 * A module loaded at its first use and kept. Rarely used integrations (code host, tracker,
 * S3, exports, OCR, OAuth, SMTP) go through one of these, so a process that never calls them
 * never loads them: each costs megabytes of heap for its source and compiled code.
 * A failed load is not cached, so the next call tries again.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    }));
}

/**
 * The synchronous twin of lazyModule, for code that cannot await (a parser called inside a
 * synchronous function): the package is required at the first call and kept. Node requires ES
 * modules too (those without top-level await).
 */
export function lazyRequire<T>(parentUrl: string, specifier: string): () => T {
  let loaded: { value: T } | null = null;
  return () => (loaded ??= { value: createRequire(parentUrl)(specifier) as T }).value;
}
