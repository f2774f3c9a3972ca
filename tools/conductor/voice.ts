import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import type { Ctx } from '../../core/context.ts';
import { AppError, DomainError, UnavailableError } from '../../core/errors.ts';
import { creates } from '../common.ts';
import type { FormData, Response } from 'undici';
import { undici } from '../../core/safe-fetch.ts';
import { addressRefused, endpointFetch, modelAccess, REFUSED_ACTION, type Endpoint } from '../interviews/model-access.ts';
import { SdkSessionId, sdkSession } from '../sdk/session-access.ts';
import { segmentsOf, type Segment } from './script.ts';
import { stateOf } from './engine.ts';
import { studyById } from '../studies/record.ts';

/**
 * Voice runs on an OpenAI-compatible realtime service with the project's key (or the
 * operator's). Without one the widget keeps to text: these routes say so, not retryable.
 */
async function voiceEndpoint(ctx: Ctx, sessionId: string, needTalk = false): Promise<{ endpoint: Endpoint; segment: Segment | null }> {
  const { interview } = await sdkSession(ctx, sessionId);
  if (interview.status !== 'in_progress') {
    throw new DomainError('The interview has not started', { code: 'session_not_started', action: 'POST /api/sdk/conductor/:sessionId/start first' });
  }
  const study = interview.study_id ? await studyById(interview.study_id, ctx.services.db.pool) : null;
  const segment = segmentsOf(study?.script_json)[stateOf(interview).segment] ?? null;
  if (needTalk && segment?.mode !== 'talk') throw new DomainError('Voice calls run only in a talk segment', { code: 'not_in_talk_mode' });
  const { llm, keyProblem } = await modelAccess(ctx.services, interview.project_id);
  if (keyProblem && !llm?.apiKey) {
    throw new UnavailableError(`Voice is not available: ${keyProblem.message}`, { code: keyProblem.code, retryable: false, action: `Continue the interview in text. ${keyProblem.action}.` });
  }
  if (!llm?.apiKey) {
    throw new UnavailableError('Voice is not available for this project: no model key is configured', {
      code: 'voice_unavailable',
      retryable: false,
      action: 'Continue the interview in text. To offer voice, set openai_api_key in the project settings (or LLM_API_KEY on the server).',
    });
  }
  return { endpoint: llm, segment };
}

/**
 * What the realtime model is told: it is the conductor's voice. The conductor decides every
 * line (the browser asks for each with response.create), so the model never improvises; the
 * segment's instruction tells it what the conversation is about.
 */
export function realtimeInstructions(segment: Segment | null): string {
  return [
    'You are the voice of a user-research interviewer. Say only the line each response gives you, word for word, warmly and neutrally.',
    'Never add questions, advice, opinions or answers of your own.',
    segment ? `This part of the interview: ${segment.instruction ?? segment.title}` : '',
  ].filter(Boolean).join(' ');
}

async function upstream(endpoint: Endpoint, path: string, init: { body: string; type: string } | { form: FormData }): Promise<Response> {
  let res: Response;
  try {
    res = await endpointFetch(endpoint, path, {
      method: 'POST',
      headers: { authorization: `Bearer ${endpoint.apiKey}`, ...('type' in init ? { 'content-type': init.type } : {}) },
      body: 'form' in init ? init.form : init.body,
      signal: AbortSignal.timeout(20_000),
    });
  } catch (err) {
    if (addressRefused(err)) throw new UnavailableError('Voice is not available: the project\'s model address is not a public address', { code: 'voice_unavailable', retryable: false, action: `Continue the interview in text. ${REFUSED_ACTION}.` });
    throw new AppError(502, 'The realtime voice service could not be reached', { code: 'voice_provider_unreachable', retryable: true, action: 'Retry shortly, or continue in text' });
  }
  if (!res.ok) {
    const auth = res.status === 401 || res.status === 403;
    throw new AppError(502, `The realtime voice service answered HTTP ${res.status}`, {
      code: auth ? 'voice_provider_auth_failed' : 'voice_provider_error',
      retryable: !auth && (res.status === 429 || res.status >= 500),
      action: auth ? 'Check openai_api_key in the project settings; continue in text meanwhile' : 'Retry shortly, or continue in text',
    });
  }
  return res;
}

const Secret = z.object({ client_secret: z.string(), expires_at: z.number().nullable(), model: z.string() });
type ClientSecretBody = { client_secret?: { value?: string; expires_at?: number }; value?: string; expires_at?: number };

async function mintSecret(endpoint: Endpoint, path: string, body: Record<string, unknown>, model: string) {
  const res = await upstream(endpoint, path, { body: JSON.stringify(body), type: 'application/json' });
  const json = (await res.json().catch(() => ({}))) as ClientSecretBody;
  const value = json.client_secret?.value ?? json.value;
  if (!value) throw new AppError(502, 'The realtime voice service gave no client secret', { code: 'voice_provider_error', retryable: true });
  return { client_secret: value, expires_at: json.client_secret?.expires_at ?? json.expires_at ?? null, model };
}

const voiceCap = { annotations: creates, scope: 'write' as const, access: 'sdk' as const, mcp: false, rateLimit: 5 };

export const transcriptionSecret = capability({
  ...voiceCap,
  name: 'sdk.conductor_transcription_secret',
  title: 'Speech transcription secret (widget)',
  description: 'An ephemeral client secret with which the browser streams the participant\'s speech to the realtime transcription service.',
  input: z.strictObject({ sessionId: SdkSessionId }),
  output: Secret,
  rest: { method: 'POST', path: '/api/sdk/conductor/:sessionId/transcription-secret' },
  async handler(ctx, input) {
    const { endpoint } = await voiceEndpoint(ctx, input.sessionId);
    const model = ctx.services.config.models.transcriptionModel;
    return mintSecret(endpoint, '/realtime/transcription_sessions', { input_audio_transcription: { model } }, model);
  },
});

export const stsSecret = capability({
  ...voiceCap,
  name: 'sdk.conductor_sts_secret',
  title: 'Voice conversation secret (widget)',
  description: 'An ephemeral client secret with which the browser holds a speech-to-speech conversation with the realtime model.',
  input: z.strictObject({ sessionId: SdkSessionId }),
  output: Secret,
  rest: { method: 'POST', path: '/api/sdk/conductor/:sessionId/sts-secret' },
  async handler(ctx, input) {
    const { endpoint } = await voiceEndpoint(ctx, input.sessionId);
    const model = ctx.services.config.realtimeModel;
    return mintSecret(endpoint, '/realtime/sessions', { model }, model);
  },
});

export const realtimeCall = capability({
  ...voiceCap,
  name: 'sdk.conductor_realtime_call',
  title: 'Start a realtime voice call (widget)',
  description: 'Exchanges the browser\'s WebRTC SDP offer for the realtime service\'s answer, starting the call with the current segment as the model\'s instructions. Only once the interview has started and is in a talk segment.',
  input: z.strictObject({ sessionId: SdkSessionId, sdp: z.string().min(10).max(100_000).describe('The WebRTC SDP offer') }),
  output: z.object({ sdp: z.string(), call_id: z.string().nullable(), model: z.string(), reasoning_enabled: z.boolean(), sideband_enabled: z.boolean() }),
  rest: { method: 'POST', path: '/api/sdk/conductor/:sessionId/realtime-call' },
  async handler(ctx, input) {
    const { endpoint, segment } = await voiceEndpoint(ctx, input.sessionId, true);
    const model = ctx.services.config.realtimeModel;
    // The call starts with its session: the model's instructions, transcription of the
    // participant, and no reply of its own when they stop talking (the conductor decides).
    const form = new (await undici()).FormData();
    form.set('sdp', input.sdp);
    form.set('session', JSON.stringify({
      type: 'realtime',
      model,
      instructions: realtimeInstructions(segment),
      audio: { input: { transcription: { model: ctx.services.config.models.transcriptionModel }, turn_detection: { type: 'server_vad', create_response: false } } },
    }));
    const res = await upstream(endpoint, '/realtime/calls', { form });
    const callId = res.headers.get('location')?.split('/').pop() ?? null;
    return { sdp: await res.text(), call_id: callId, model, reasoning_enabled: false, sideband_enabled: false };
  },
});
