import type { Request, Response, NextFunction, RequestHandler } from 'express';
import { RouteTable } from './route-table.ts';
import { queryOf } from './query-guard.ts';
import type { Capability } from '../core/registry.ts';
import { contextParams, expandPath, pathParams, restPaths } from '../core/registry.ts';
import type { Services } from '../core/context.ts';
import { jsonSchema, propertyTypes, type JsonSchema } from '../core/json-schema.ts';
import { invoke, invokeJson } from '../core/invoke.ts';
import { AppError, AuthenticationError, ValidationError } from '../core/errors.ts';
import { parseMultipart } from './multipart.ts';
import { storeBinaryBody } from './binary.ts';
import { jsonBody, textBody } from './json-body.ts';
import { requestOriginOf } from '../tools/sdk/origin-guard.ts';
import { authenticate, bearerFrom } from '../auth/principal.ts';
import { projectForKey, sdkKeyFrom } from '../auth/sdk-key.ts';
import { checkRestScope } from '../auth/scope.ts';
import { deprecationHeaders } from './deprecation.ts';

/** The request carries a body (a length above zero, or chunks). */
const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

type Coercer = (value: unknown) => unknown;

/**
 * What `res.json` sends (same status, type and length), without its conditional-GET check and
 * header helpers: Express makes no ETag (core/http.ts); versioned reads bring their own. `body`
 * may already be JSON text or bytes. Node drops the body of a HEAD answer itself.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
}

/** Query strings carry text; turn each value into the type the input schema declares. */
function coercerFor(schema: JsonSchema | undefined): Coercer {
  const types = propertyTypes(schema);
  return (value) => {
    if (types.includes('array')) return Array.isArray(value) ? value : [value];
    const v = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof v !== 'string') return v;
    if ((types.includes('integer') || types.includes('number')) && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
    if (types.includes('boolean') && (v === 'true' || v === 'false')) return v === 'true';
    if (types.includes('null') && v === 'null') return null;
    return v;
  };
}

/** Builds the handler that turns one HTTP request into one capability call. */
export function restHandler(cap: Capability, services: Services): RequestHandler {
  const binding = cap.rest!;
  const props = (jsonSchema(cap.input, 'input').properties ?? {}) as Record<string, JsonSchema>;
  const coerce = new Map(Object.keys(props).map((k) => [k, coercerFor(props[k])]));
  const ctxParams = new Set(contextParams(cap.access));
  const params = pathParams(binding.path).filter((p) => !ctxParams.has(p));
  const bodyless = binding.method === 'GET' || binding.method === 'DELETE';
  const queryFields = new Set(binding.query ?? []);
  const headers = cap.deprecated ? deprecationHeaders(cap.deprecated) : null;
  const status = binding.status ?? 200;
  const sdk = cap.access === 'sdk';

  const through = (handler: RequestHandler) => (req: Request, res: Response) => new Promise<void>((resolve, reject) => handler(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  const parseJson = through(jsonBody(binding.bodyLimit ?? 1024 * 1024));
  const parseText = through(textBody(binding.bodyLimit ?? 1024 * 1024));

  return async (req: Request, res: Response, next: NextFunction) => {
    let stored: string[] = [];
    try {
      if (headers) for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      const input: Record<string, unknown> = {};
      // Who is calling is settled before any body is read, so strangers upload nothing.
      const principal = cap.access === 'public' || sdk ? null : await authenticate(services, bearerFrom(req));
      if (cap.access !== 'public' && !sdk && !principal) throw new AuthenticationError();
      checkRestScope(cap, principal);
      // The widget's key is checked before any body is read, too.
      const sdkAccess = sdk ? await projectForKey(services, sdkKeyFrom(req)) : null;
      if (binding.binary) {
        const body = await storeBinaryBody(req, services.storage, binding.binary.maxBytes);
        stored = [body.storage_key];
        input[binding.binary.field] = body;
      } else if (binding.multipart) {
        const parsed = await parseMultipart(req, res, services.storage, binding.multipart);
        stored = parsed.stored;
        Object.assign(input, parsed.input);
      } else if (!bodyless) {
        await parseJson(req, res);
        // A body in another type (text/plain, a form) would otherwise read as no fields at all; an empty one is none.
        if (req.body === undefined && hasBody(req)) {
          await parseText(req, res);
          const sent = req.body as unknown;
          req.body = undefined;
          if (typeof sent === 'string' && sent.trim()) throw new AppError(415, 'Send the request body as JSON with Content-Type: application/json', { code: 'unsupported_media_type' });
        }
      }
      if (!binding.multipart && !binding.binary && !bodyless && req.body !== undefined) {
        if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
          throw new ValidationError('Request body must be a JSON object');
        }
        Object.assign(input, req.body);
      }
      for (const [key, value] of Object.entries(queryOf(req))) {
        if (sdk && key === 'key') continue;
        if (bodyless || queryFields.has(key)) input[key] = (coerce.get(key) ?? ((v: unknown) => v))(value);
        else throw new ValidationError(`unknown query parameter ${key}`);
      }
      for (const [header, field] of Object.entries(binding.headers ?? {})) {
        const value = req.get(header);
        if (value !== undefined) input[field] = (coerce.get(field) ?? ((v: unknown) => v))(value);
      }
      const pathValues = req.params as Record<string, string>;
      for (const p of params) input[p] = (coerce.get(p) ?? ((v: unknown) => v))(pathValues[p]);
      const context = { orgHandle: pathValues.orgHandle, projectHandle: pathValues.projectHandle, sdkAccess, origin: sdk ? requestOriginOf(req.headers) : null };
      const call = { services, principal, requestId: req.requestId, surface: 'rest' as const };
      if (!binding.redirect) {
        const answer = await invokeJson(cap, input, context, call, req.headers['if-none-match']);
        if (answer.etag) {
          res.setHeader('ETag', answer.etag);
          // The copy a client keeps must be checked again before each use: the version moves with every write.
          res.setHeader('Cache-Control', 'private, no-cache');
        }
        if (answer.body === null) {
          res.statusCode = 304;
          return res.end();
        }
        return sendJson(res, status, answer.body);
      }
      const output = await invoke(cap, input, context, call);
      const location = binding.redirect ? output[binding.redirect] : undefined;
      if (typeof location === 'string' && req.accepts(['json', 'html']) === 'html') return res.redirect(302, location);
      sendJson(res, status, output);
    } catch (err) {
      // Nothing half-written: files this request stored go when it fails.
      await Promise.all(stored.map((k) => services.storage.delete(k).catch(() => {})));
      next(err);
    }
  };
}

export function restRouter(capabilities: Capability[], services: Services, limiter: (cap: Capability) => RequestHandler | null): RequestHandler {
  const table = new RouteTable();
  // Fixed segments before parameters: `media/:type/full` must win over `media/:type/:chunkIndex`.
  const ordered = capabilities.filter((c) => c.rest).sort((a, b) => pathParams(a.rest!.path).length - pathParams(b.rest!.path).length);
  for (const cap of ordered) {
    if (!cap.rest) continue;
    const limit = limiter(cap);
    const handlers = limit ? [limit, restHandler(cap, services)] : [restHandler(cap, services)];
    for (const path of restPaths(cap.rest)) table.add(cap.rest.method, expandPath(path), handlers);
  }
  return table.handler();
}
