import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Capability } from './registry.ts';
import { isUserBound, type Ctx, type Principal, type Services, type UserPrincipal } from './context.ts';
import { AuthenticationError, ForbiddenError, ValidationError } from './errors.ts';
import { resolveOrg, resolveProject, requireRole } from '../auth/access.ts';
import { projectForKey } from '../auth/sdk-key.ts';
import { refuseUnsafeText } from './input-guard.ts';
import { fromDatabaseError } from './db-errors.ts';
import { checkOutput, outputCheckFor } from './output-check.ts';

export interface Call {
  services: Services;
  principal: Principal | null;
  requestId: string;
  surface: 'rest' | 'mcp';
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.length ? issue.path.join('.') : 'body';
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.map((k) => (issue.path.length ? `${where}.${k}` : k));
        return `unknown field${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`;
      }
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * The one validation path for registry input on every surface. Text Postgres cannot store
 * (NUL, lone surrogates) is refused here for every string and key, whatever the schema says.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  refuseUnsafeText(value);
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(describeIssues(result.error));
  return result.data;
}

/**
 * SPEC 5.4, from the registry: a scoped credential without `agent:write` may call only
 * capabilities whose scope is read and that change nothing (readOnlyHint).
 */
export function checkScope(cap: Capability, principal: UserPrincipal): void {
  if (!principal.scopes || (cap.scope === 'read' && cap.annotations.readOnlyHint)) return;
  if (!principal.scopes.includes('agent:write')) {
    throw new ForbiddenError('This credential may only read: agent:write is required', { code: 'agent_write_not_permitted' });
  }
}

/**
 * The one path every surface takes into a handler: authenticate, gate scope, validate,
 * resolve org/project membership and role, run, and shape the output by its schema.
 * `context` holds orgHandle/projectHandle as the surface found them.
 */
export interface CallContext {
  orgHandle?: string;
  projectHandle?: string;
  /** For `sdk` capabilities: the project the widget's SDK key belongs to, as the surface resolved it. */
  sdkAccess?: Awaited<ReturnType<typeof projectForKey>> | null;
  /** The request's `Origin` header, for the SDK origin guard. */
  origin?: string | null;
  /** The surface already parsed `input` with `cap.input` or a schema extending it (MCP's tool input): not parsed twice. */
  inputParsed?: boolean;
}

export async function invoke(cap: Capability, input: unknown, context: CallContext, call: Call): Promise<Record<string, unknown>> {
  return called(cap, input, context, call, async (ctx, user, parsed) => {
    await enter(cap, ctx, user, context);
    return answer(cap, ctx, parsed);
  });
}

/** A REST answer: JSON text, with an entity tag when the capability is versioned. `body` null: the caller's copy is current. */
export interface JsonAnswer {
  body: string | Buffer | null;
  etag: string | null;
}

/**
 * The same call, answered as JSON text (REST). A versioned read (Capability.version) sends
 * again the bytes of the answer made at the version Postgres has now, without running the
 * handler, and tags them with that version: a caller whose `If-None-Match` names the tag gets
 * no body at all. Access is checked on every call all the same.
 */
export async function invokeJson(cap: Capability, input: unknown, context: CallContext, call: Call, ifNoneMatch?: string): Promise<JsonAnswer> {
  return called(cap, input, context, call, async (ctx, user, parsed) => {
    await enter(cap, ctx, user, context);
    if (!cap.version) return { body: JSON.stringify(await answer(cap, ctx, parsed)), etag: null };
    // Read before the answer: an answer made at a later version is only fresher than this key says.
    const version = await cap.version(ctx);
    const key = `${cap.name} ${ctx.project?.id ?? ''} ${ctx.org?.handle ?? ''} ${ctx.project?.handle ?? ''} ${JSON.stringify(parsed)}`;
    const etag = `"${createHash('sha1').update(key).digest('base64url').slice(0, 16)}.${version}"`;
    if (ifNoneMatch && matchesTag(ifNoneMatch, etag)) return { body: null, etag };
    const kept = ctx.services.answers.get(key, version);
    if (kept) return { body: kept, etag };
    const body = Buffer.from(JSON.stringify(await answer(cap, ctx, parsed)));
    ctx.services.answers.set(key, version, body);
    return { body, etag };
  });
}

/** RFC 9110 13.1.2: `*` or a list of tags, compared weakly. */
function matchesTag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

type Step<T> = (ctx: Ctx, user: UserPrincipal | null, parsed: unknown) => Promise<T>;

/** Authenticate, gate scope and validate; then the step, with database errors typed. */
async function called<T>(cap: Capability, input: unknown, context: CallContext, call: Call, step: Step<T>): Promise<T> {
  const { services } = call;
  const ctx: Ctx = {
    requestId: call.requestId,
    surface: call.surface,
    principal: call.principal,
    org: null,
    project: null,
    services,
    log: services.log.child({ requestId: call.requestId, capability: cap.name }),
    requestOrigin: context.origin ?? null,
  };
  let user: UserPrincipal | null = null;
  if (cap.access === 'sdk') {
    const sdk = context.sdkAccess ?? (await projectForKey(services, null));
    Object.assign(ctx, { principal: sdk.principal, project: sdk.project, org: sdk.org });
  } else if (cap.access !== 'public') {
    if (!isUserBound(call.principal)) throw new AuthenticationError();
    user = call.principal;
    if (cap.access === 'admin' && !user.isAdmin) throw new ForbiddenError('Operators only', { code: 'admin_required' });
    checkScope(cap, user);
  }
  refuseUnsafeText({ orgHandle: context.orgHandle, projectHandle: context.projectHandle });
  const parsed = context.inputParsed ? input : parseOrThrow(cap.input, input);
  try {
    return await step(ctx, user, parsed);
  } catch (err) {
    // Races (two creates of one handle) and values only Postgres checks: typed, on both surfaces.
    throw fromDatabaseError(err) ?? err;
  }
}

/** Resolves the org or project the call names, and the caller's role in it. */
async function enter(cap: Capability, ctx: Ctx, user: UserPrincipal | null, context: CallContext): Promise<void> {
  const { services } = ctx;
  if (cap.access === 'project') {
    Object.assign(ctx, await resolveProject(services, user!, context.orgHandle!, context.projectHandle!));
  } else if (cap.access === 'org') {
    ctx.org = await resolveOrg(services, user!, context.orgHandle!);
  }
  if (ctx.org && user) requireRole(ctx.org, cap.roles, cap.title.toLowerCase());
}

/** Runs the handler and checks its answer against the output schema. */
async function answer(cap: Capability, ctx: Ctx, parsed: unknown): Promise<Record<string, unknown>> {
  const output = await cap.handler(ctx, parsed as never);
  // What this write changed reaches every process's caches (migration 0021); this answer waits until this process has it.
  if (!cap.annotations.readOnlyHint) await ctx.services.changes.settle();
  return checkOutput(cap.output, output, outputCheckFor(ctx.services.config.environment), cap.name);
}
