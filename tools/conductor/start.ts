import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { DomainError } from '../../core/errors.ts';
import { updates } from '../common.ts';
import { SdkSessionId, elapsedMs, recordEvent, sdkSession } from '../sdk/session-access.ts';
import { NEW_STATE } from './engine.ts';
import { isEnded } from './end.ts';
import { newSessionToken, sessionTokenHash } from './token.ts';
import { inTransaction } from '../../core/tx.ts';
import { interviews } from '../interviews/rows.ts';
import { PageUrl, recordPageView } from '../sdk/page-view.ts';

export const conductorStart = capability({
  name: 'sdk.conductor_start',
  title: 'Start the conductor (widget)',
  description:
    'Starts (or resumes) the live interview and returns the WebSocket URL that runs its script, carrying the SDK key and a session token. ' +
    'A session_token sent by the caller is kept as the token; otherwise a new one is issued. page_url (and page_title) record the page the ' +
    'participant is on, at every start, so evidence shows where it was said. Needs data-use consent first.',
  input: z.strictObject({
    sessionId: SdkSessionId,
    session_token: z.string().min(16).max(512).regex(/^[A-Za-z0-9._~-]+$/, 'must be URL-safe').optional().describe('A compatibility session token to keep'),
    page_url: PageUrl.optional().describe('The page the participant is on; its query and fragment are not kept. Evidence from the interview carries it'),
    page_title: z.string().trim().max(300).optional().describe("The page's title"),
  }),
  output: z.object({ ws_url: z.string(), session_id: z.string(), session_token: z.string(), resumed: z.boolean() }),
  annotations: updates,
  scope: 'write',
  access: 'sdk',
  mcp: false,
  rateLimit: 10,
  rest: { method: 'POST', path: '/api/sdk/conductor/:sessionId/start' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const token = input.session_token ?? newSessionToken();
    const resumed = await inTransaction(ctx.services.db.pool, async (sql) => {
      const { interview } = await sdkSession(ctx, input.sessionId, sql, true);
      if (isEnded(interview)) throw new DomainError('This interview has already ended', { code: 'session_ended' });
      if (interview.consent_data_use !== true) {
        throw new DomainError('The participant has not agreed to take part yet', { code: 'consent_required', action: 'POST /api/sdk/sessions/:sessionId/consent with consent_data_use: true first' });
      }
      const resuming = interview.status === 'in_progress';
      await interviews.save(sql, interview, { status: 'in_progress', started_at: interview.started_at ?? new Date(), conductor_state: (interview.conductor_state ?? NEW_STATE) as never, conductor_token_hash: sessionTokenHash(token) });
      if (!resuming) await recordEvent(ctx.services, interview.id, { type: 'started', timestampMs: elapsedMs(interview), line: 'interview started' }, sql);
      if (input.page_url) await recordPageView(ctx.services, interview, input.page_url, input.page_title || null, sql);
      return resuming;
    });
    const url = new URL(`/api/sdk/conductor/${encodeURIComponent(input.sessionId)}/ws`, ctx.services.baseUrl());
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('key', project.public_key);
    url.searchParams.set('session_token', token);
    return { ws_url: url.toString(), session_id: input.sessionId, session_token: token, resumed };
  },
});
