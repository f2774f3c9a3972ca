import { ValidationError } from './errors.ts';

/**
 * Text Postgres cannot hold: NUL (refused by `text`, `jsonb` and the wire protocol) and UTF-16
 * surrogates without their pair (not encodable as UTF-8). The `u` flag makes a well-formed
 * pair one code point, so `\p{Cs}` matches only a lone half.
 */
const UNSAFE_TEXT = /[\0\p{Cs}]/u;
/** Whether text holds what Postgres cannot store (see UNSAFE_TEXT). */
export const unsafeText = (text: string) => UNSAFE_TEXT.test(text);

export const MAX_JSON_DEPTH = 64;

const fieldName = (path: (string | number)[]) => (path.length ? path.join('.') : 'value');

/**
 * Refuses a value holding unsafe text in any string or object key, at any depth, with a 400
 * naming the field (`title`, `items.2.text`). `prefix` names the root when the value is a
 * single string (`logout_token`).
 */
export function refuseUnsafeText(value: unknown, prefix: (string | number)[] = []): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: prefix }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (UNSAFE_TEXT.test(v)) throw new ValidationError(`${fieldName(path)}: must not contain NUL bytes or unpaired surrogates`);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, path: [...path, i] }));
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [key, item] of Object.entries(v)) {
        if (UNSAFE_TEXT.test(key)) throw new ValidationError(`${path.length ? `${fieldName(path)}: field` : 'Field'} names must not contain NUL bytes or unpaired surrogates`);
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
}

/** Refuses parsed JSON nested deeper than MAX_JSON_DEPTH, before anything recurses over it. */
export function refuseDeepJson(value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) throw new ValidationError(`JSON is nested deeper than ${MAX_JSON_DEPTH} levels`, { code: 'too_deep' });
    for (const item of Array.isArray(v) ? v : Object.values(v)) stack.push({ value: item, depth: depth + 1 });
  }
}
