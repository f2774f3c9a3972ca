/**
 * An unsaved form kept in this tab's sessionStorage, so that a session that ends mid-edit (the
 * page goes to sign-in) or a reload does not lose it. The key names what the draft edits and
 * the version it started from: a draft of an older version is not put back.
 */
export function keptDraft<T>(key: string): T | null {
  try {
    const raw = sessionStorage.getItem(`verbatim:draft:${key}`);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/** Keeps `value`, or forgets the draft when it is null (saved, or back to what is stored). */
export function keepDraft(key: string, value: unknown): void {
  try {
    if (value === null) sessionStorage.removeItem(`verbatim:draft:${key}`);
    else sessionStorage.setItem(`verbatim:draft:${key}`, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the form still works, it is just not kept.
  }
}
