import type { ChangeFeed } from './change-feed.ts';

export interface Cached<V> {
  value: V;
  /** Topics whose notification drops this entry, e.g. `session:usn_…`. */
  topics: string[];
  /** When the row itself stops being valid (a session's expiry), in ms since the epoch. */
  expiresAt?: number | null;
}

/**
 * What a row said, kept until a change notification names one of its topics. Answers from
 * memory only while the feed is live; a load that raced a change is returned but not kept.
 * A loader answering null ("no longer valid") is never cached. Bounded: cleared when full.
 */
export class FeedCache<V> {
  private entries = new Map<string, { value: V; topics: string[]; expiresAt: number | null }>();
  private byTopic = new Map<string, Set<string>>();
  private readonly feed: ChangeFeed;
  private readonly maxEntries: number;

  constructor(feed: ChangeFeed, maxEntries = 10_000) {
    this.feed = feed;
    this.maxEntries = maxEntries;
    feed.subscribe(
      (topic) => this.drop(topic),
      () => this.clear(),
    );
  }

  async get(key: string, load: () => Promise<Cached<V> | null>): Promise<V | null> {
    const live = this.feed.live();
    const hit = live ? this.entries.get(key) : undefined;
    if (hit && (hit.expiresAt === null || hit.expiresAt > Date.now())) return hit.value;
    if (hit) this.forget(key);
    const generation = this.feed.generation();
    const loaded = await load();
    if (!loaded) return null;
    if (live && this.feed.live() && this.feed.generation() === generation) this.keep(key, loaded);
    return loaded.value;
  }

  /** Drops every entry that named `topic`. */
  drop(topic: string): void {
    const keys = this.byTopic.get(topic);
    if (!keys) return;
    for (const key of [...keys]) this.forget(key);
  }

  clear(): void {
    this.entries.clear();
    this.byTopic.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private keep(key: string, { value, topics, expiresAt }: Cached<V>): void {
    if (this.entries.size >= this.maxEntries) this.clear();
    this.forget(key);
    this.entries.set(key, { value, topics, expiresAt: expiresAt ?? null });
    for (const topic of topics) {
      let keys = this.byTopic.get(topic);
      if (!keys) this.byTopic.set(topic, (keys = new Set()));
      keys.add(key);
    }
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const topic of entry.topics) {
      const keys = this.byTopic.get(topic);
      keys?.delete(key);
      if (keys?.size === 0) this.byTopic.delete(topic);
    }
  }
}
