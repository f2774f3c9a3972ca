import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';

/**
 * How a capability's answer is checked against its output schema before it leaves.
 * - `full` (tests and development): the whole answer is parsed, and the parse must give back
 *   exactly what the handler returned (no unknown field stripped, no default filled in), so a
 *   handler can never rely on the parse to hide a field.
 * - `sample` (production): the answer is parsed with every array cut to its first element, which
 *   still catches a handler whose shape drifted, at the cost of one record instead of all of them.
 * The answer sent is the handler's own in both modes; `full` proves that is the same thing.
 */
export type OutputCheck = 'full' | 'sample';

export function outputCheckFor(environment: string): OutputCheck {
  return environment === 'production' ? 'sample' : 'full';
}

export class OutputShapeError extends Error {}

function firstOfEachArray(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [firstOfEachArray(value[0])] : [];
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = firstOfEachArray((value as Record<string, unknown>)[key]);
  return out;
}

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

export function checkOutput(schema: z.ZodType, output: unknown, mode: OutputCheck, name: string): Record<string, unknown> {
  if (mode === 'sample') {
    schema.parse(firstOfEachArray(output));
    return output as Record<string, unknown>;
  }
  const parsed = schema.parse(output);
  if (!isDeepStrictEqual(asJson(parsed), asJson(output))) {
    throw new OutputShapeError(`${name}: the handler's answer differs from its output schema's parse (a field the schema does not declare, or a default it fills in)`);
  }
  return output as Record<string, unknown>;
}
