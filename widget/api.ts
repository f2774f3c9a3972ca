/** Calls the service's SDK routes with the project's key; errors carry the API envelope. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string | undefined, message: string) {
    super(message);
  }
}

export interface Api {
  base: string;
  key: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown, opts?: { keepalive?: boolean }): Promise<T>;
  /** A multipart form (recordings). */
  upload<T>(path: string, form: FormData): Promise<T>;
}

export function createApi(base: string, key: string): Api {
  const call = async <T>(method: string, path: string, body?: unknown, keepalive = false): Promise<T> => {
    const form = body instanceof FormData;
    const res = await fetch(base + path, {
      method,
      keepalive,
      headers: { 'x-project-key': key, ...(body === undefined || form ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
    if (!res.ok) throw new ApiError(res.status, json.code, json.error ?? `HTTP ${res.status}`);
    return json as T;
  };
  return {
    base,
    key,
    get: (path) => call('GET', path),
    post: (path, body, opts) => call('POST', path, body ?? {}, opts?.keepalive ?? false),
    upload: (path, form) => call('POST', path, form),
  };
}
