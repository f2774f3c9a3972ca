import { DEFAULT_OPENAI_BASE_URL } from './catalog.ts';

export interface ProbeResult {
  ok: boolean;
  status: number | null;
  message: string;
}

/**
 * Asks an OpenAI-compatible provider to list models with the key: the cheapest call that
 * proves the key works. Only the outcome is reported, never the provider's response body.
 */
export async function probeModelKey(apiKey: string, baseUrl: string | null, timeoutMs = 5000): Promise<ProbeResult> {
  const url = `${(baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '')}/models`;
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    await res.body?.cancel();
    if (res.ok) return { ok: true, status: res.status, message: 'The provider accepted the key' };
    if (res.status === 401 || res.status === 403) return { ok: false, status: res.status, message: 'The provider rejected the key' };
    return { ok: false, status: res.status, message: `The provider answered HTTP ${res.status}` };
  } catch (err) {
    const reason = err instanceof Error && err.name === 'TimeoutError' ? 'did not answer in time' : 'could not be reached';
    return { ok: false, status: null, message: `The provider at ${new URL(url).host} ${reason}` };
  }
}
