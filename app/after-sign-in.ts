/**
 * Where a person who was sent to sign in was going (an invitation's link, a card's moment), kept in
 * this tab while they sign in, so signing in takes them there rather than to the project list.
 */
const KEY = 'verbatim:after-sign-in';

export function rememberWhereTo(path: string): void {
  try {
    if (path !== '/sign-in') sessionStorage.setItem(KEY, path);
  } catch {
    // Storage disabled: signing in goes to the project list.
  }
}

/** The path to go to once signed in, if one was kept; it is kept only until read. */
export function afterSignIn(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function forgetWhereTo(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
