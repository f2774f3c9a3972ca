import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Services } from '../../core/context.ts';
import type { InterviewRow } from '../../models/index.ts';
import { verifyRuntimeToken } from '../sdk/runtime-token.ts';

const digest = (token: string) => createHash('sha256').update(token).digest();

export const newSessionToken = () => randomBytes(24).toString('base64url');
export const sessionTokenHash = (token: string) => digest(token).toString('hex');

/** The conductor session token from start, or a live runtime token of this interview. */
export async function sessionTokenValid(services: Services, interview: InterviewRow, token: string | null): Promise<boolean> {
  if (!token) return false;
  if (interview.conductor_token_hash && timingSafeEqual(digest(token), Buffer.from(interview.conductor_token_hash, 'hex'))) return true;
  return verifyRuntimeToken(services, token, interview.project_id, interview.id);
}
