import { z } from 'zod';
import { HANDLE_PATTERN } from '../core/ids.ts';

/** Shared zod pieces. Timestamps are ISO strings on every surface. */
export const Timestamp = z.string().describe('ISO 8601 timestamp');
export const Handle = z.string().regex(HANDLE_PATTERN, 'must be 1-48 lower-case letters, digits or dashes, not starting or ending with a dash');
export const Success = z.object({ success: z.boolean() });
/**
 * Any JSON value, for a field that truly takes one. Declared as one flat list of JSON types:
 * z.json() would give a recursive $ref, which some agents' schema converters cannot follow.
 */
export const JsonValue = z.unknown().meta({ type: ['string', 'number', 'boolean', 'null', 'array', 'object'] });
/** A JSON object with any values. */
export const JsonObject = z.record(z.string(), JsonValue);

export const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
export const creates = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
export const updates = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
export const deletes = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;

/** Milliseconds into an interview as m:ss. */
export const clock = (ms: number) => `${Math.floor(ms / 60000)}:${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}`;

const PG_UTC = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * ISO 8601 in UTC with milliseconds. A timestamptz as Postgres writes it in UTC
 * ("2026-11-23 17:37:22.123456+00", what hot queries read as text) is rewritten without
 * building a Date; the fraction is cut to milliseconds, as a Date would.
 */
export const isoRequired = (d: Date | string): string => {
  if (typeof d === 'string') {
    const m = PG_UTC.exec(d);
    if (m) return `${m[1]}T${m[2]}.${((m[3] ?? '') + '000').slice(0, 3)}Z`;
  }
  return new Date(d).toISOString();
};
export const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : isoRequired(d));

/** Handles that would shadow routes or confuse people; never given to an org or project. */
export const RESERVED_HANDLES = new Set([
  'api', 'admin', 'new', 'settings', 'o', 'p', 'public', 'sdk', 'mcp', 'oauth', 'auth', 'docs', 'login', 'logout',
  'me', 'help', 'support', 'static', 'assets', 'well-known', 'verbatim', 'service', 'system', 'root',
]);

/** First free handle among base, base-2, base-3, ... according to `taken`. */
export async function freeHandle(base: string, taken: (h: string) => Promise<boolean>): Promise<string> {
  const root = RESERVED_HANDLES.has(base) ? `${base}-1` : base;
  for (let i = 1; i < 1000; i++) {
    const candidate = i === 1 ? root : `${root.slice(0, 44)}-${i}`;
    if (!(await taken(candidate))) return candidate;
  }
  throw new Error('no free handle');
}

/** Collects SQL conditions with numbered parameters: `where.add('status = ?', value)`. */
export function sqlWhere(first: string, firstValue: unknown) {
  const conditions = [first];
  const bind: unknown[] = [firstValue];
  return {
    bind,
    add(sql: string, value: unknown) {
      bind.push(value);
      conditions.push(sql.replace('?', `$${bind.length}`));
    },
    raw(sql: string) {
      conditions.push(sql);
    },
    get clause() {
      return conditions.join(' AND ');
    },
  };
}
