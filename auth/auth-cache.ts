import type { ChangeFeed } from '../core/change-feed.ts';
import { FeedCache } from '../core/feed-cache.ts';
import type { OrgContext } from '../core/context.ts';

export interface SessionState {
  isAdmin: boolean;
}

export interface CredentialState {
  userId: string | null;
  registrationId: string;
  scopes: string[];
}

/**
 * What this process knows about who may do what, kept until Postgres says it changed
 * (migration 0021's triggers on sessions, users, memberships, organizations and agent
 * credentials notify every process; see core/change-feed.ts). Verified token signatures are
 * pure and kept until the token expires.
 */
export interface AuthCache {
  sessions: FeedCache<SessionState>;
  credentials: FeedCache<CredentialState>;
  /** Membership of `userId` in the org with `handle`, keyed `userId handle`. */
  members: FeedCache<OrgContext>;
  verified: VerifiedTokens;
}

export function createAuthCache(feed: ChangeFeed): AuthCache {
  return { sessions: new FeedCache(feed), credentials: new FeedCache(feed), members: new FeedCache(feed), verified: new VerifiedTokens() };
}

/** Claims of tokens whose signature was checked, until their `exp`. Bounded: cleared when full. */
export class VerifiedTokens {
  private entries = new Map<string, { claims: unknown; expiresAt: number }>();
  private readonly maxEntries: number;

  constructor(maxEntries = 10_000) {
    this.maxEntries = maxEntries;
  }

  async get<C>(token: string, verify: () => Promise<{ claims: C; expiresAt: number }>): Promise<C> {
    const hit = this.entries.get(token);
    if (hit && hit.expiresAt > Date.now()) return hit.claims as C;
    if (hit) this.entries.delete(token);
    const fresh = await verify();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(token, fresh);
    return fresh.claims;
  }
}
