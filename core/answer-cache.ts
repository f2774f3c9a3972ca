/**
 * Serialised answers of versioned reads (Capability.version), kept while the version they were
 * made at holds. Bounded by bytes: the oldest answers go first; an answer over a sixteenth of
 * the budget is never kept.
 */
export class AnswerCache {
  private entries = new Map<string, { version: number; body: Buffer }>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(maxBytes = 8 * 1024 * 1024) {
    this.maxBytes = maxBytes;
  }

  get(key: string, version: number): Buffer | null {
    const hit = this.entries.get(key);
    return hit && hit.version === version ? hit.body : null;
  }

  set(key: string, version: number, body: Buffer): void {
    this.delete(key);
    if (body.length > this.maxBytes / 16) return;
    this.entries.set(key, { version, body });
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }
}
