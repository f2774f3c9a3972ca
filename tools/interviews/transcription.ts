import fs from 'node:fs/promises';
import path from 'node:path';
import type { Response } from 'undici';
import { undici } from '../../core/safe-fetch.ts';
import { addressRefused, endpointFetch, REFUSED_ACTION, type Endpoint } from './model-access.ts';
import { StepFailure } from './pipeline.ts';

export interface TimedText {
  start_ms: number;
  end_ms: number;
  text: string;
}

/**
 * One audio file through an OpenAI-compatible `/audio/transcriptions` endpoint (OpenAI,
 * or a self-hosted Whisper server). Times come back relative to the file; `offsetMs`
 * places them in the interview.
 */
export async function transcribeFile(endpoint: Endpoint, file: string, offsetMs: number, opts: { mime?: string; timeoutMs?: number } = {}): Promise<TimedText[]> {
  const form = new (await undici()).FormData();
  form.set('file', new Blob([await fs.readFile(file)], { type: opts.mime ?? 'audio/mpeg' }), path.basename(file));
  form.set('model', endpoint.model);
  form.set('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'segment');
  let res: Response;
  try {
    res = await endpointFetch(endpoint, '/audio/transcriptions', {
      method: 'POST',
      headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
      body: form,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10 * 60_000),
    });
  } catch (err) {
    if (addressRefused(err)) throw new StepFailure('transcription_address_not_allowed', 'The transcription address is not a public address, so it was not called', { action: REFUSED_ACTION });
    throw new StepFailure('transcription_provider_unreachable', `The transcription service at ${new URL(endpoint.baseUrl).host} could not be reached`, { retryable: true });
  }
  if (res.status === 401 || res.status === 403) {
    throw new StepFailure('transcription_auth_failed', 'The transcription service rejected the API key', {
      action: endpoint.source === 'project' ? 'Check openai_api_key in the project settings, then retry transcription' : 'Check TRANSCRIPTION_API_KEY, then retry transcription',
    });
  }
  if (!res.ok) throw new StepFailure('transcription_provider_error', `The transcription service answered HTTP ${res.status}`, { retryable: res.status === 429 || res.status >= 500 });
  const body = (await res.json()) as { text?: string; segments?: Array<{ start: number; end: number; text: string }>; duration?: number };
  if (body.segments?.length) {
    return body.segments
      .filter((s) => s.text?.trim())
      .map((s) => ({ start_ms: offsetMs + Math.round(s.start * 1000), end_ms: offsetMs + Math.round(s.end * 1000), text: s.text.trim() }));
  }
  const text = body.text?.trim();
  return text ? [{ start_ms: offsetMs, end_ms: offsetMs + Math.round((body.duration ?? 0) * 1000), text }] : [];
}
