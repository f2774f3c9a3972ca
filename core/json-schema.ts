import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema (draft 2020-12, which OpenAPI 3.1 and MCP both use) for a zod schema. Inputs
 * describe what callers may send (`io: 'input'`), outputs what they get back.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** The primitive JSON types a property accepts (looking through anyOf/oneOf). */
export function propertyTypes(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const own = schema.type;
  const types = Array.isArray(own) ? own : own ? [own] : [];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key] as JsonSchema[] | undefined;
    if (branches) for (const b of branches) types.push(...propertyTypes(b));
  }
  return types as string[];
}
