/**
 * What a row said, trusted for `ttlMs` before it is read again; bounded in size (cleared
 * when full). A loader answering null means "no longer valid" and forgets the entry.
 */
export function recheckCache<K, V>(ttlMs: number, maxEntries = 10_000) {
  const entries = new Map<K, { value: V; checkedAt: number }>();
  return {
    async get(key: K, load: () => Promise<V | null>): Promise<V | null> {
      const hit = entries.get(key);
      if (hit && Date.now() - hit.checkedAt < ttlMs) return hit.value;
      const value = await load();
      if (value === null) {
        entries.delete(key);
        return null;
      }
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, { value, checkedAt: Date.now() });
      return value;
    },
    delete(key: K): void {
      entries.delete(key);
    },
    deleteWhere(match: (value: V) => boolean): void {
      for (const [key, entry] of entries) if (match(entry.value)) entries.delete(key);
    },
  };
}
