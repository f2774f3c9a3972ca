import type { AnswerCache } from './answer-cache.ts';
import type { Config } from './config.ts';
import type { Database } from './database.ts';
import type { Logger } from './logger.ts';
import type { ProjectAttrs, Role } from '../models/index.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { UserTokens } from '../auth/user-tokens.ts';
import type { Storage } from './storage/storage.ts';
import type { BillingGate } from './billing.ts';
import type { Mailer } from './mailer.ts';
import type { KeyObject } from 'node:crypto';
import type { OAuth } from '../auth/oauth/provider.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { AuthCache } from '../auth/auth-cache.ts';
import { NotFoundError } from './errors.ts';

/**
 * Who is calling. Every principal acts for a user (membership decides access); principals
 * other than a signed-in user carry scopes that gate writes (SPEC 5.4).
 */
/** A person's own session ('user'), or an agent credential acting for a person ('agent'). */
export interface UserPrincipal {
  kind: 'user' | 'agent';
  userId: string;
  isAdmin: boolean;
  /** Null: unrestricted (a user's own session). Otherwise the granted scopes. */
  scopes: string[] | null;
  sessionId: string | null;
  /** For agents: the registration the credential belongs to. */
  registrationId?: string;
}

/** The widget: a project's SDK key. It reaches SDK routes only, never a user's routes. */
export interface SdkPrincipal {
  kind: 'sdk';
  projectId: string;
}

export type Principal = UserPrincipal | SdkPrincipal;

export interface OrgContext {
  id: string;
  handle: string;
  name: string;
  personal: boolean;
  role: Role;
}

/** Long-lived collaborators every handler may use. */
export interface Services {
  config: Config;
  log: Logger;
  db: Database;
  secrets: SecretBox;
  tokens: UserTokens;
  storage: Storage;
  billing: BillingGate;
  mailer: Mailer;
  /** HMAC key of agent access tokens. */
  agentTokenKey: KeyObject;
  /** HMAC key of the widget's short-lived runtime tokens. */
  runtimeTokenKey: KeyObject;
  /** The authorization server, built on first use (it needs the listening address). */
  oauth(): Promise<OAuth>;
  /** Public base address, e.g. http://127.0.0.1:3000. */
  baseUrl(): string;
  /** Change notifications from Postgres, for caches that must never answer stale. */
  changes: ChangeFeed;
  auth: AuthCache;
  /** Serialised answers of versioned reads (Capability.version). */
  answers: AnswerCache;
}

export interface Ctx {
  requestId: string;
  surface: 'rest' | 'mcp';
  principal: Principal | null;
  org: OrgContext | null;
  project: ProjectAttrs | null;
  services: Services;
  log: Logger;
  /** The browser `Origin` of an SDK call (null when the request had none). */
  requestOrigin?: string | null;
}

export function isUserBound(p: Principal | null): p is UserPrincipal {
  return p !== null && (p.kind === 'user' || p.kind === 'agent');
}

export function principalOf(ctx: Ctx): UserPrincipal {
  if (!isUserBound(ctx.principal)) throw new Error('a handler that needs a user was reached without one');
  return ctx.principal;
}

export function orgOf(ctx: Ctx): OrgContext {
  if (!ctx.org) throw new NotFoundError('Organization not found');
  return ctx.org;
}

export function projectOf(ctx: Ctx): { project: ProjectAttrs; org: OrgContext } {
  if (!ctx.project || !ctx.org) throw new NotFoundError('Project not found');
  return { project: ctx.project, org: ctx.org };
}
