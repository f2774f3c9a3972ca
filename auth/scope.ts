import type { Capability } from '../core/registry.ts';
import { expandPath } from '../core/registry.ts';
import type { UserPrincipal } from '../core/context.ts';
import { ForbiddenError } from '../core/errors.ts';

/** SPEC 5.4: the REST families a read-only agent credential may GET. */
const READ_FAMILIES = [/^\/api\/auth\/session$/, /^\/api\/user(\/|$)/, /^\/api\/me(\/|$)/, /^\/api\/orgs\/:orgHandle\/projects(\/|$)/];

/**
 * The REST gate: without `agent:write`, only GET of a read capability in those families.
 * Everything else is 403 agent_write_not_permitted. (MCP gates per tool in invoke.)
 */
export function checkRestScope(cap: Capability, principal: UserPrincipal | null): void {
  if (!principal?.scopes || principal.scopes.includes('agent:write')) return;
  const path = expandPath(cap.rest!.path);
  const readable = cap.rest!.method === 'GET' && cap.scope === 'read' && cap.annotations.readOnlyHint && READ_FAMILIES.some((re) => re.test(path));
  if (!readable) throw new ForbiddenError('This credential may only read: agent:write is required', { code: 'agent_write_not_permitted' });
}
