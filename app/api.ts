import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './api-types.ts';

/** The REST API's error envelope, in plain words with the action it suggests. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly action: string | undefined;
  constructor(status: number, body: { error?: string; code?: string; action?: string } | undefined) {
    super(body?.error ?? `The server answered HTTP ${status}`);
    this.status = status;
    this.code = body?.code;
    this.action = body?.action;
  }
}

/** Called when the session has ended, so the workspace can send the person back to sign-in. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (fn: () => void) => (onSignedOut = fn);

const signedOut: Middleware = {
  onResponse({ response }) {
    if (response.status === 401) onSignedOut();
  },
};

/** The typed client of the public REST API, with the session cookie. */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(signedOut);

/** The data of an openapi-fetch result, or its error envelope thrown as ApiError. */
export function data<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.error !== undefined || r.data === undefined) throw new ApiError(r.response.status, r.error as never);
  return r.data;
}

/** The edge routes that set the session cookie (not in the OpenAPI document). */
export async function postAuth(path: '/api/auth/email-code' | '/api/auth/email-code/verify' | '/api/auth/logout', body: unknown): Promise<unknown> {
  const res = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json().catch(() => undefined)) as { error?: string; code?: string; action?: string } | undefined;
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}
