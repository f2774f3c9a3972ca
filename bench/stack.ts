import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { requestId } from '../rest/request-id.ts';
import { accessLog } from '../rest/access-log.ts';
import { queryGuard } from '../rest/query-guard.ts';
import { RouteTable } from '../rest/route-table.ts';
import { createLogger } from '../core/logger.ts';
import { loadCatalog } from '../core/catalog.ts';
import { expandPath, restPaths } from '../core/registry.ts';

/**
 * What each piece kept on every request costs on its own, in nanoseconds per request, called
 * directly (no sockets): request id, access log at the bench's level, query guard, and the
 * capability route lookup for a project path.
 */
function nsPerCall(run: () => void): number {
  for (let i = 0; i < 20_000; i++) run();
  const n = 200_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) run();
  return Number(process.hrtime.bigint() - started) / n;
}

const next: NextFunction = () => {};
const req = (url: string) => ({ url, originalUrl: url, method: 'GET', path: url.split('?')[0], get: () => undefined, headers: {} }) as unknown as Request;
const res = (forReq?: Request) => Object.assign(new EventEmitter(), { req: forReq, statusCode: 200, locals: {}, setHeader() {}, writableFinished: true }) as unknown as Response;

export async function stackCosts(): Promise<Record<string, number>> {
  const log = createLogger('error', {}, { write: () => {} });
  const access = accessLog(log);
  const table = new RouteTable();
  const catalog = await loadCatalog();
  for (const cap of catalog.capabilities) if (cap.rest) for (const p of restPaths(cap.rest)) table.add(cap.rest.method, expandPath(p), [() => {}]);
  const route = table.handler();
  // Building the stand-in request and response is not the middleware's cost.
  const base = nsPerCall(() => {
    res().emit('close');
    req('/api/health');
  });
  const cost = (run: () => void) => Math.max(0, nsPerCall(run) - base);
  return {
    stack_request_id_ns: cost(() => requestId(req('/api/health'), res(), next)),
    stack_access_log_ns: cost(() => {
      const q = req('/api/orgs/a/projects/b');
      const r = res(q);
      access(q, r, next);
      r.emit('close');
    }),
    stack_query_guard_ns: cost(() => queryGuard(req('/api/orgs/a/projects/b/signals'), res(), next)),
    stack_route_lookup_ns: cost(() => route(req('/api/orgs/acme/projects/checkout/signals'), res(), next)),
  };
}
