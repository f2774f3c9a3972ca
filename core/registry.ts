import { z } from 'zod';
import type { Ctx } from './context.ts';
import type { Role } from '../models/index.ts';

/**
 * Who may call a capability and what context the surfaces resolve before the handler runs:
 * - `public`: anyone;
 * - `user`: any authenticated principal;
 * - `org`: a member of the org named by `orgHandle`;
 * - `project`: a member of the project's org (REST path `P/...`, MCP argument `projectRef`);
 * - `admin`: an operator (user with the admin flag);
 * - `sdk`: the widget, with a project's SDK key (`X-Project-Key` or `?key=`); ctx.project is its project.
 */
export type Access = 'public' | 'user' | 'org' | 'project' | 'admin' | 'sdk';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface RestBinding {
  method: HttpMethod;
  /** SPEC form: `P/...` expands to `/api/orgs/:orgHandle/projects/:projectHandle/...`. */
  path: string;
  /** Success status; default 200. */
  status?: number;
  /** For POST/PUT/PATCH: input fields read from the query string instead of the body. */
  query?: string[];
  /** Other paths serving the same operation (same parameters), e.g. `P/intakes` beside `P/screeners`. */
  aliases?: string[];
  /** Largest JSON body accepted, in bytes; default 1 MiB. */
  bodyLimit?: number;
  /** The body is multipart/form-data; these parts are files (all other parts are text fields). */
  multipart?: Record<string, MultipartFile>;
  /** Input fields read from request headers: header name (lower case) → field. */
  headers?: Record<string, string>;
  /** The body is raw bytes (application/octet-stream), streamed to storage and passed as a StoredBody in `field`. */
  binary?: { field: string; maxBytes: number };
  /** An output field holding a URL: a browser (preferring HTML over JSON) is sent there with 302; API clients get the JSON. */
  redirect?: string;
}

/**
 * A file part of a multipart body. `text` parts arrive in the input as a string; `media`
 * parts are streamed to storage, checked by their first bytes, and arrive as an
 * UploadedFile (see rest/multipart.ts). Over `maxBytes` the request is 413.
 */
export interface MultipartFile {
  kind: 'text' | 'media';
  maxBytes: number;
  /** For media: which containers the part may be. */
  accept?: 'audio' | 'video' | 'either';
}

/** Every path a binding answers on: its own first, then its aliases. */
export function restPaths(binding: RestBinding): string[] {
  return [binding.path, ...(binding.aliases ?? [])];
}

export interface Deprecation {
  /** RFC 9745 date the capability became deprecated (ISO date). */
  since: string;
  /** RFC 8594 removal date (ISO date), at least 90 days after announcement. */
  sunset?: string;
  /** Migration guidance. */
  link: string;
}

export type ObjectSchema = z.ZodObject<z.ZodRawShape>;

export interface Capability<I extends ObjectSchema = ObjectSchema, O extends ObjectSchema = ObjectSchema> {
  kind: 'capability';
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Annotations;
  scope: 'read' | 'write';
  access: Access;
  /** Org roles allowed, for `org` and `project` access; default: every member. */
  roles?: Role[];
  rest?: RestBinding;
  /** Listed as an MCP tool; default true. Widget- and webhook-only capabilities say false. */
  mcp: boolean;
  deprecated?: Deprecation;
  /** Per-IP limit on the REST route, in a 60-second window. */
  rateLimit?: number;
  /**
   * For a read whose answer depends only on its input, the project and data Postgres versions
   * (e.g. `evidence_versions`): the version now. While it holds, REST sends the bytes of the same
   * answer again instead of running the handler (core/answer-cache.ts).
   */
  version?(ctx: Ctx): Promise<number>;
  handler(ctx: Ctx, input: z.output<I>): Promise<z.input<O>>;
}

export function capability<I extends ObjectSchema, O extends ObjectSchema>(
  def: Omit<Capability<I, O>, 'kind' | 'mcp'> & { mcp?: boolean },
): Capability<I, O> {
  return { ...def, kind: 'capability', mcp: def.mcp ?? true };
}

export const NAME_PATTERN = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

/** `P/...` → the full express path. */
export function expandPath(path: string): string {
  return path.startsWith('P/') || path === 'P'
    ? '/api/orgs/:orgHandle/projects/:projectHandle' + path.slice(1)
    : path;
}

export function pathParams(path: string): string[] {
  return [...expandPath(path).matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
}

/** Parameters the surfaces resolve into ctx rather than passing to the handler. */
export function contextParams(access: Access): string[] {
  if (access === 'project') return ['orgHandle', 'projectHandle'];
  if (access === 'org') return ['orgHandle'];
  return [];
}
