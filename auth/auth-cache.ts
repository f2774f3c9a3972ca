import type { ChangeFeed } from '../core/change-feed.ts';
import { FeedCache } from '../core/feed-cache.ts';
import type { OrgContext } from '../core/context.ts';
import type { ProjectAttrs } from '../models/index.ts';
import type { MemberRecord } from '../tools/orgs/members-record.ts';

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
 * (migration 0021's triggers on sessions, users, memberships, organizations, projects and
 * agent credentials notify every process; see core/change-feed.ts). Verified token signatures are
 * pure and kept until the token expires.
 */
export interface AuthCache {
  sessions: FeedCache<SessionState>;
  credentials: FeedCache<CredentialState>;
  /** Membership of `userId` in the org with `handle`, keyed `userId handle`. */
  members: FeedCache<OrgContext>;
  /** The same, with the project row, keyed `userId orgHandle projectHandle`. Frozen: handlers read it, never change it. */
  projects: FeedCache<{ org: OrgContext; project: ProjectAttrs }>;
  /** An org's member list, keyed by org id. */
  memberLists: FeedCache<readonly MemberRecord[]>;
  verified: VerifiedTokens;
}

export function createAuthCache(feed: ChangeFeed): AuthCache {
  return {
    sessions: new FeedCache(feed),
    credentials: new FeedCache(feed),
    members: new FeedCache(feed),
    projects: new FeedCache(feed),
    memberLists: new FeedCache(feed, 1_000),
    verified: new VerifiedTokens(),
  };
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
