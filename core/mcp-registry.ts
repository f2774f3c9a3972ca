import type { z } from 'zod';
import type { Access } from './registry.ts';
import type { Ctx } from './context.ts';

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

/** Matches a concrete URI against a template; returns its parameters or null. */
export function matchTemplate(template: string, uri: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const m = new RegExp(`^${pattern}$`).exec(uri);
  if (!m) return null;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
}
