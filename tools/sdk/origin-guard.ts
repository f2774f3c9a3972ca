import type { IncomingHttpHeaders } from 'node:http';
import type { Ctx } from '../../core/context.ts';
import type { StudyRow } from '../studies/record.ts';
import { ForbiddenError } from '../../core/errors.ts';

export type OriginGuardCode = 'origin_required' | 'origin_invalid' | 'origin_not_allowed';

/** `scheme://host[:port]` in lower case without a default port, or null when it is not an http(s) origin. */
export function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return null;
    return url.origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The page origin of a browser request: its Origin header, else the origin of its Referer
 * (browsers leave Origin off same-origin GETs). Neither: null.
 */
export function requestOriginOf(headers: IncomingHttpHeaders): string | null {
  if (typeof headers.origin === 'string') return headers.origin;
  if (typeof headers.referer !== 'string') return null;
  try {
    return new URL(headers.referer).origin;
  } catch {
    return null;
  }
}

const MESSAGES: Record<OriginGuardCode, { error: string; action: string }> = {
  origin_required: {
    error: 'This study only runs on its allowed websites, and the request carried no Origin',
    action: 'Load the widget from a page on one of the study\'s allowed origins',
  },
  origin_invalid: {
    error: 'The request Origin is not a valid web origin',
    action: 'Serve the page over http(s) from one of the study\'s allowed origins (sandboxed and file pages send Origin: null)',
  },
  origin_not_allowed: {
    error: 'This website is not one of the study\'s allowed origins',
    action: 'Add this origin to the study\'s allowed_origins, or embed the widget on an allowed site',
  },
};

/** Our own pages (the demo, recording launch pages) are always allowed. */
const ownOrigin = (ctx: Ctx) => normaliseOrigin(ctx.services.baseUrl());

/**
 * SPEC 2.16 origin guard. A study that lists allowed origins runs only on those; each
 * refusal is recorded on the study (`origin_guard_failure`) so its owners see why their
 * widget does not start. A study without allowed origins runs anywhere its key is used.
 */
export async function guardOrigin(ctx: Ctx, study: StudyRow | null, sessionId: string | null): Promise<void> {
  if (!study || !study.allowed_origins.length) return;
  const requestOrigin = ctx.requestOrigin || null;
  const normalized = requestOrigin ? normaliseOrigin(requestOrigin) : null;
  const allowed = study.allowed_origins.map((o) => normaliseOrigin(o) ?? o);
  let code: OriginGuardCode | null = null;
  if (!requestOrigin) code = 'origin_required';
  else if (!normalized) code = 'origin_invalid';
  else if (!allowed.includes(normalized) && normalized !== ownOrigin(ctx)) code = 'origin_not_allowed';
  if (!code) return;
  const { error, action } = MESSAGES[code];
  const failure = {
    session_id: sessionId,
    code,
    reason: error,
    request_origin: requestOrigin,
    normalized_origin: normalized,
    allowed_origins: study.allowed_origins,
    policy_source: 'study.allowed_origins',
    occurred_at: new Date().toISOString(),
  };
  // Recorded outside any request transaction: the refusal itself rolls nothing back.
  await ctx.services.db.pool.query(`UPDATE studies SET origin_guard_failure = $2 WHERE id = $1`, [study.id, JSON.stringify(failure)]);
  throw new ForbiddenError(error, { code, retryable: false, action });
}
