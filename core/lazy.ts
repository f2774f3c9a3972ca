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
