import { z } from 'zod';
import { SignJWT, jwtVerify } from 'jose';
import { capability } from '../../core/registry.ts';
import type { Services } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import { DomainError } from '../../core/errors.ts';
import { creates } from '../common.ts';
import { SdkSessionId, sdkSession } from './session-access.ts';

const AUDIENCE = 'urn:service:sdk-runtime';
export const RUNTIME_TOKEN_SECONDS = 600;

export async function issueRuntimeToken(services: Services, projectId: string, interviewId: string): Promise<{ token: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + RUNTIME_TOKEN_SECONDS * 1000);
  const token = await new SignJWT({ pid: projectId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(interviewId)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(services.runtimeTokenKey);
  return { token, expiresAt };
}

/** True when `token` is a live runtime token for this interview of this project. */
export async function verifyRuntimeToken(services: Services, token: string, projectId: string, interviewId: string): Promise<boolean> {
  try {
    const { payload } = await jwtVerify(token, services.runtimeTokenKey, { audience: AUDIENCE, algorithms: ['HS256'] });
    return payload.sub === interviewId && payload.pid === projectId;
  } catch {
    return false;
  }
}

export const sdkRuntimeToken = capability({
  name: 'sdk.runtime_token',
  title: 'Runtime token (widget)',
  description: `A short-lived token (${RUNTIME_TOKEN_SECONDS / 60} minutes) bound to one interview; the widget uses it as the conductor session token when it reconnects.`,
  input: z.strictObject({ sessionId: SdkSessionId }),
  output: z.object({ token: z.string(), token_type: z.literal('Bearer'), session_id: z.string(), expires_in: z.number().int(), expires_at: z.string() }),
  annotations: creates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rateLimit: 20,
  rest: { method: 'POST', path: '/api/sdk/sessions/:sessionId/runtime-token' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const { interview } = await sdkSession(ctx, input.sessionId);
    if (interview.status === 'completed' || interview.status === 'abandoned') {
      throw new DomainError('This interview has already ended', { code: 'session_ended' });
    }
    const { token, expiresAt } = await issueRuntimeToken(ctx.services, project.id, interview.id);
    return { token, token_type: 'Bearer' as const, session_id: interview.id, expires_in: RUNTIME_TOKEN_SECONDS, expires_at: expiresAt.toISOString() };
  },
});
