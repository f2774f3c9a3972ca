import type { Services } from '../../core/context.ts';
import { endpointFetch, projectEndpoint } from '../interviews/model-access.ts';

export interface ProbeResult {
  ok: boolean;
  status: number | null;
  message: string;
}

const FAILED: ProbeResult = { ok: false, status: null, message: 'The provider did not accept the key at this address' };

/**
 * Asks an OpenAI-compatible provider to list models with the key: the cheapest call that
 * proves the key works. The address is a user's, so the call goes through the SSRF guard,
 * and every failure reads the same (refused, unreachable, rejected or any other answer):
 * the probe must not tell a caller what answers at an address.
 */
export async function probeModelKey(services: Services, apiKey: string, baseUrl: string | null, timeoutMs = 5000): Promise<ProbeResult> {
  try {
    const res = await endpointFetch(projectEndpoint(services, baseUrl, apiKey), '/models', { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok ? { ok: true, status: res.status, message: 'The provider accepted the key' } : FAILED;
  } catch {
    return FAILED;
  }
}
