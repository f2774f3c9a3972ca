import type { Config } from './config.ts';
import type { Database } from './database.ts';
import type { Logger } from './logger.ts';
import type { Models, ProjectRow, Role } from '../models/index.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { UserTokens } from '../auth/user-tokens.ts';
import { NotFoundError } from './errors.ts';

/**
 * Who is calling. Every principal acts for a user (membership decides access); principals
 * other than a signed-in user carry scopes that gate writes (SPEC 5.4).
 */
export interface Principal {
  kind: 'user';
  userId: string;
  isAdmin: boolean;
  /** Null: unrestricted (a user's own session). Otherwise the granted scopes. */
  scopes: string[] | null;
  sessionId: string | null;
}

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
  models: Models;
  secrets: SecretBox;
  tokens: UserTokens;
  /** Public base address, e.g. http://127.0.0.1:3000. */
  baseUrl(): string;
}

export interface Ctx {
  requestId: string;
  surface: 'rest' | 'mcp';
  principal: Principal | null;
  org: OrgContext | null;
  project: ProjectRow | null;
  services: Services;
  log: Logger;
}

export function principalOf(ctx: Ctx): Principal {
  if (!ctx.principal) throw new Error('capability without a principal reached a handler that needs one');
  return ctx.principal;
}

export function orgOf(ctx: Ctx): OrgContext {
  if (!ctx.org) throw new NotFoundError('Organization not found');
  return ctx.org;
}

export function projectOf(ctx: Ctx): { project: ProjectRow; org: OrgContext } {
  if (!ctx.project || !ctx.org) throw new NotFoundError('Project not found');
  return { project: ctx.project, org: ctx.org };
}
