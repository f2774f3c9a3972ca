import type { RequestInit, Response } from 'undici';
import type { Services } from '../../core/context.ts';
import { guardedFetch, undici } from '../../core/safe-fetch.ts';
import { AppError } from '../../core/errors.ts';
import { DEFAULT_OPENAI_BASE_URL } from '../settings/catalog.ts';
import { projectSettings, recordSettingUse } from '../settings/rows.ts';

export interface Endpoint {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** Whose configuration this is: the project's own key, or the operator's. */
  source: 'project' | 'operator';
  /** For project endpoints: whether the outbound guard lets loopback through (OUTBOUND_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
}

/**
 * The one way to call a model endpoint. A project's base URL is a user's choice, so it goes
 * through the SSRF guard; the operator's (environment) addresses are trusted as configured.
 */
export async function endpointFetch(endpoint: Endpoint, path: string, init: RequestInit): Promise<Response> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}${path}`;
  if (endpoint.source === 'operator') return (await undici()).fetch(url, { ...init, redirect: 'error' });
  return guardedFetch(url, init, { allowLoopback: endpoint.allowLoopback });
}

/** True when the SSRF guard refused the address (an internal or non-http address). */
export function addressRefused(err: unknown): boolean {
  return err instanceof AppError && err.code === 'url_not_allowed';
}

/** What a processing step says when the project's model address is refused. */
export const REFUSED_ACTION = 'Set openai_base_url in the project settings to the provider\'s public http(s) address, then retry';

/** What a transcription that failed for want of a service asks for (the status says to retry once there is one). */
export const CONFIGURE_TRANSCRIPTION = 'Set openai_api_key in the project settings (or TRANSCRIPTION_URL on the server)';

/** A project endpoint for a base URL a user gave (settings probe, before anything is stored). */
export function projectEndpoint(services: Services, baseUrl: string | null, apiKey: string, model = ''): Endpoint {
  return { baseUrl: baseUrl ?? DEFAULT_OPENAI_BASE_URL, apiKey, model, source: 'project', allowLoopback: services.config.outboundAllowLoopback };
}

/** The project holds a model key this process cannot open: callers must say so, never fall back silently. */
export interface KeyProblem {
  code: 'model_key_unreadable';
  message: string;
  action: string;
}

/**
 * The model endpoints a project's processing may use: its own openai_api_key first (with
 * its base URL and models), else what the operator configured, else none (offline).
 * `keyProblem` is set when the project's key is stored but does not open here.
 */
export async function modelAccess(
  services: Services,
  projectId: string,
): Promise<{ transcription: Endpoint | null; llm: Endpoint | null; keyProblem: KeyProblem | null }> {
  const rows = await projectSettings(services.db.pool, projectId);
  const value = (key: string) => rows.find((r) => r.key === key);
  const keyRow = value('openai_api_key');
  let projectKey: string | null = null;
  let keyProblem: KeyProblem | null = null;
  if (keyRow?.ciphertext && keyRow.key_id) {
    try {
      projectKey = services.secrets.open({ keyId: keyRow.key_id, ciphertext: keyRow.ciphertext }, projectId);
    } catch (err) {
      const reason = err instanceof AppError ? err.code : 'open_failed';
      services.log.error('the project model key cannot be opened with this process\'s encryption keys', { projectId, key_id: keyRow.key_id, reason });
      keyProblem = {
        code: 'model_key_unreadable',
        message: `The project's openai_api_key is stored but this server cannot open it (${reason}: sealed with encryption key ${keyRow.key_id})`,
        action: 'Give every process the same ENCRYPTION_KEY (add the key that sealed it to ENCRYPTION_KEYS_PREVIOUS), or set openai_api_key again; then retry processing',
      };
    }
  }
  const base = value('openai_base_url')?.value ?? DEFAULT_OPENAI_BASE_URL;
  const m = services.config.models;
  if (projectKey) {
    return {
      transcription: projectEndpoint(services, base, projectKey, value('transcription_model')?.value ?? m.transcriptionModel),
      llm: projectEndpoint(services, base, projectKey, value('openai_model')?.value ?? m.llmModel),
      keyProblem: null,
    };
  }
  return {
    transcription: m.transcriptionUrl ? { baseUrl: m.transcriptionUrl, apiKey: m.transcriptionKey, model: m.transcriptionModel, source: 'operator', allowLoopback: true } : null,
    llm: m.llmKey ? { baseUrl: m.llmUrl ?? DEFAULT_OPENAI_BASE_URL, apiKey: m.llmKey, model: m.llmModel, source: 'operator', allowLoopback: true } : null,
    keyProblem,
  };
}

/** Records the outcome of a call made with the project's own key, for settings.key_health. */
export async function recordKeyUse(services: Services, projectId: string, endpoint: Endpoint, error: string | null): Promise<void> {
  if (endpoint.source !== 'project') return;
  await recordSettingUse(services.db.pool, projectId, 'openai_api_key', error);
}
