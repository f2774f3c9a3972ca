import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadCatalog, type Catalog } from '../core/catalog.ts';
import { NAME_PATTERN, contextParams, expandPath, pathParams, restPaths } from '../core/registry.ts';
import { jsonSchema, type JsonSchema } from '../core/json-schema.ts';

let catalog: Catalog;

/** Sentences in a description: text up to a . ! or ? that ends it or is followed by a space (e.g./i.e. are not ends). */
function sentences(text: string): number {
  return text
    .replace(/\b(e\.g|i\.e|etc|vs)\./g, '$1')
    .split(/[.!?](?=\s|$)/)
    .filter((part) => /\w/.test(part)).length;
}

/** Paths of the properties (and record values, array items, union branches) that declare no type. */
function untyped(schema: JsonSchema, path: string): string[] {
  const typed = (s: JsonSchema) => ['type', 'anyOf', 'oneOf', '$ref', 'const', 'enum'].some((k) => k in s);
  const found: string[] = [];
  const sub = (s: unknown, where: string) => {
    if (!s || typeof s !== 'object') return;
    if (!typed(s as JsonSchema)) found.push(where);
    found.push(...untyped(s as JsonSchema, where));
  };
  for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) sub(s, `${path}.${name}`);
  for (const [name, s] of Object.entries((schema.$defs ?? {}) as Record<string, unknown>)) sub(s, `${path}#${name}`);
  if (schema.items) sub(schema.items, `${path}[]`);
  if (typeof schema.additionalProperties === 'object') sub(schema.additionalProperties, `${path}{}`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) ((schema[key] ?? []) as unknown[]).forEach((s, i) => sub(s, `${path}|${key}${i}`));
  return found;
}
beforeAll(async () => {
  catalog = await loadCatalog();
});

describe('every capability definition', () => {
  it('has a unique, valid dotted name', () => {
    const names = catalog.capabilities.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(NAME_PATTERN);
    for (const name of names) expect(name.replace(/\./g, '_')).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('sets every MCP annotation explicitly and coherently with its scope', () => {
    for (const cap of catalog.capabilities) {
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof cap.annotations[hint], `${cap.name}.${hint}`).toBe('boolean');
      }
      if (cap.scope === 'write') expect(cap.annotations.readOnlyHint, cap.name).toBe(false);
      if (cap.annotations.readOnlyHint) expect(cap.annotations.destructiveHint, cap.name).toBe(false);
      if (cap.rest?.method === 'DELETE') expect(cap.annotations.destructiveHint, cap.name).toBe(true);
    }
  });

  it('has a title and a description an agent can act on', () => {
    for (const cap of catalog.capabilities) {
      expect(cap.title.length, cap.name).toBeGreaterThan(3);
      expect(cap.description.length, cap.name).toBeGreaterThanOrEqual(30);
    }
  });

  it('says what each MCP tool does and when to use it, in two sentences at least', () => {
    expect(sentences('Lists studies. Use it first.')).toBe(2);
    expect(sentences('A card (e.g. a quote) with its score 0.5.')).toBe(1);
    const short = catalog.capabilities.filter((c) => c.mcp && sentences(c.description) < 2).map((c) => `${c.name}: ${c.description}`);
    expect(short).toEqual([]);
  });

  it('gives every input property a type, at any depth', () => {
    expect(untyped(jsonSchema(z.strictObject({ a: z.unknown(), b: z.record(z.string(), z.any()) }), 'input'), 'probe')).toEqual(['probe.a', 'probe.b{}']);
    const missing = catalog.capabilities.flatMap((c) => untyped(jsonSchema(c.input, 'input'), c.name));
    expect(missing).toEqual([]);
  });

  it('declares every REST path parameter in its input (or resolves it as org/project context)', () => {
    for (const cap of catalog.capabilities) {
      if (!cap.rest) continue;
      const ctx = contextParams(cap.access);
      for (const path of restPaths(cap.rest)) {
        const params = pathParams(path);
        for (const p of params) {
          if (ctx.includes(p)) continue;
          expect(Object.keys(cap.input.shape), `${cap.name} path :${p}`).toContain(p);
        }
        for (const p of ctx) expect(params, `${cap.name} needs :${p} in ${path}`).toContain(p);
        expect(params.sort(), `${cap.name}: ${path} and ${cap.rest.path} take the same parameters`).toEqual(pathParams(cap.rest.path).sort());
        expect(expandPath(path).startsWith('/api/'), cap.name).toBe(true);
      }
    }
  });

  it('produces real JSON Schemas (never {}) with object roots', () => {
    for (const cap of catalog.capabilities) {
      const input = jsonSchema(cap.input, 'input');
      const output = jsonSchema(cap.output, 'output');
      expect(input.type, cap.name).toBe('object');
      expect(output.type, cap.name).toBe('object');
      expect(Object.keys(output.properties ?? {}).length, cap.name).toBeGreaterThan(0);
      expect(input.additionalProperties, `${cap.name} input must be strict`).toBe(false);
    }
  });

  it('has no two REST bindings on the same method and path', () => {
    const seen = new Set<string>();
    for (const cap of catalog.capabilities) {
      if (!cap.rest) continue;
      for (const path of restPaths(cap.rest)) {
        const key = `${cap.rest.method} ${expandPath(path).replace(/:\w+/g, ':')}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
    }
  });

  it('keeps widget (SDK key) capabilities off MCP and on /api/sdk', () => {
    for (const cap of catalog.capabilities.filter((c) => c.access === 'sdk')) {
      expect(cap.mcp, cap.name).toBe(false);
      expect(cap.rest?.path.startsWith('/api/sdk/'), cap.name).toBe(true);
    }
  });

  it('is reachable somewhere: MCP, REST or both', () => {
    for (const cap of catalog.capabilities) expect(cap.mcp || Boolean(cap.rest), cap.name).toBe(true);
  });
});

describe('resources and prompts', () => {
  it('have names, descriptions and service:// templates', () => {
    expect(catalog.resources.length).toBeGreaterThan(0);
    expect(catalog.prompts.length).toBeGreaterThan(0);
    for (const r of catalog.resources) {
      expect(r.uriTemplate).toMatch(/^service:\/\//);
      expect(r.description.length).toBeGreaterThan(20);
    }
    for (const p of catalog.prompts) {
      expect(p.description.length).toBeGreaterThan(20);
      for (const name of Object.keys(p.args.shape)) expect(p.argDescriptions[name], `${p.name}.${name}`).toBeTruthy();
    }
  });
});
