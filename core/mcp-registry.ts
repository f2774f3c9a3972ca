import type { z } from 'zod';
import type { Access } from './registry.ts';
import type { Ctx } from './context.ts';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { ValidationError } from './errors.ts';
import { refuseUnsafeText } from './input-guard.ts';

/** A read-only document an agent can attach, addressed by a `service://` URI template. */
export interface ResourceDef {
  kind: 'resource';
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** RFC 6570 level-1 template, e.g. `service://projects/{orgHandle}/{projectHandle}/overview`. */
  uriTemplate: string;
  access: Access;
  /** Concrete resources this caller can read (for resources/list). */
  list(ctx: Ctx): Promise<Array<{ uri: string; name: string; title?: string; description?: string }>>;
  /** ctx.org/ctx.project are resolved from the template's orgHandle/projectHandle. */
  read(ctx: Ctx, params: Record<string, string>): Promise<string>;
}

/** A research workflow an agent can start. Arguments are strings, as MCP prompts require. */
export interface PromptDef<A extends z.ZodObject<Record<string, z.ZodType<string | undefined>>> = z.ZodObject<Record<string, z.ZodType<string | undefined>>>> {
  kind: 'prompt';
  name: string;
  title: string;
  description: string;
  args: A;
  argDescriptions: Record<string, string>;
  access: Access;
  render(ctx: Ctx, args: z.output<A>): Promise<{ description?: string; messages: Array<{ role: 'user' | 'assistant'; text: string }> }>;
}

export function resource(def: Omit<ResourceDef, 'kind'>): ResourceDef {
  return { ...def, kind: 'resource' };
}

export function prompt<A extends z.ZodObject<Record<string, z.ZodType<string | undefined>>>>(def: Omit<PromptDef<A>, 'kind'>): PromptDef<A> {
  return { ...def, kind: 'prompt' };
}

const MAX_URI_LENGTH = 8192;

/** A resource's URI template, parsed once (RFC 6570, by the MCP SDK). */
export function resourceTemplate(def: ResourceDef): UriTemplate {
  return new UriTemplate(def.uriTemplate);
}

/**
 * The template's parameters in `uri`, percent-decoded, or null when it does not match.
 * A bad %-escape, a NUL or a lone surrogate is the caller's mistake: ValidationError.
 */
export function matchResourceUri(template: UriTemplate, uri: string): Record<string, string> | null {
  if (uri.length > MAX_URI_LENGTH) throw new ValidationError(`uri: must be at most ${MAX_URI_LENGTH} characters`, { code: 'invalid_uri' });
  checkUriText(uri, 'uri');
  const vars = template.match(uri);
  if (!vars) return null;
  return Object.fromEntries(
    Object.entries(vars).map(([name, raw]) => {
      const value = Array.isArray(raw) ? raw.join(',') : raw;
      let decoded: string;
      try {
        decoded = decodeURIComponent(value);
      } catch {
        throw new ValidationError(`uri: ${name} has an invalid percent-escape`, { code: 'invalid_uri' });
      }
      checkUriText(decoded, name);
      return [name, decoded];
    }),
  );
}

/** The one NUL and lone-surrogate check (core/input-guard.ts), answered as a URI error. */
function checkUriText(text: string, where: string): void {
  try {
    refuseUnsafeText(text, [where]);
  } catch (err) {
    throw new ValidationError((err as Error).message, { code: 'invalid_uri' });
  }
}
