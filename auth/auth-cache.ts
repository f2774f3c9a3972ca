import type { ChangeFeed } from '../core/change-feed.ts';
import { FeedCache } from '../core/feed-cache.ts';
import type { OrgContext } from '../core/context.ts';
import type { ProjectAttrs } from '../models/index.ts';
import type { MemberRecord } from '../tools/orgs/members-record.ts';
import type { TokenIdentity } from './principal.ts';

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

/** Whom tokens whose signature was checked name, until they expire. Bounded: cleared when full. */
export class VerifiedTokens {
  private entries = new Map<string, { identity: TokenIdentity; expiresAt: number }>();
  private readonly maxEntries: number;

  constructor(maxEntries = 10_000) {
    this.maxEntries = maxEntries;
  }

  peek(token: string): TokenIdentity | null {
    const hit = this.entries.get(token);
    if (!hit) return null;
    if (hit.expiresAt > Date.now()) return hit.identity;
    this.entries.delete(token);
    return null;
  }

  keep(token: string, identity: TokenIdentity, expiresAt: number): TokenIdentity {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(token, { identity, expiresAt });
    return identity;
  }
}
