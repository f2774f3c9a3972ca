import type { RequestListener } from 'node:http';
import express, { type Request, type Response, type NextFunction } from 'express';
import type { Catalog } from './catalog.ts';
import type { Services } from './context.ts';
import { restRouter } from '../rest/router.ts';
import { openApiDocument } from '../rest/openapi.ts';
import { docsRouter } from '../rest/docs.ts';
import { storageRoutes } from '../rest/storage-routes.ts';
import { codehostWebhook } from '../rest/webhooks/codehost.ts';
import { trackerWebhook } from '../rest/webhooks/tracker.ts';
import { billingWebhookRoutes } from '../rest/webhooks/billing.ts';
import { publicIconRoutes } from '../rest/public-icons.ts';
import { recordingPages } from '../rest/recording-pages.ts';
import { sdkCors } from '../rest/sdk-cors.ts';
import { widgetRoutes } from '../rest/widget-routes.ts';
import { agentRoutes } from '../auth/agent-routes.ts';
import { sessionRoutes } from '../auth/session-routes.ts';
import { oauthRoutes } from '../auth/oauth/routes.ts';
import { signInRoutes } from '../auth/signin.ts';
import { appRoutes } from '../rest/app-routes.ts';
import { emailCodeRoutes } from '../auth/email-code.ts';
import { linkingRoutes } from '../auth/linking.ts';
import { requestId } from '../rest/request-id.ts';
import { accessLog } from '../rest/access-log.ts';
import { apiNotFound, asAppError, errorHandler } from '../rest/errors.ts';
import { queryGuard } from '../rest/query-guard.ts';
import { createMcpEndpoint } from './mcp-server.ts';
import { mcpBody } from './mcp-body.ts';
import { routeLimiter } from './rate-limit.ts';
import { authenticate, bearerFrom } from '../auth/principal.ts';
import { AppError, AuthenticationError, ForbiddenError, toEnvelope } from './errors.ts';
import { VERSION } from './version.ts';
import { isHotPath, withHotPath } from './hot-path.ts';

/** A body /mcp cannot read is a JSON-RPC error (-32700 parse error, -32600 otherwise), as MCP clients expect. */
function mcpBodyError(services: Services) {
  return (err: unknown, req: Request, res: Response, next: NextFunction) => {
    const known = asAppError(err);
    if (!known || known.status >= 500) return next(err);
    const code = known.code === 'malformed_json' ? -32700 : -32600;
    services.log.debug('unreadable MCP body', { requestId: req.requestId, error: known.message });
    res.status(known.status).json({ jsonrpc: '2.0', error: { code, message: code === -32700 ? `Parse error: ${known.message}` : known.message, data: toEnvelope(known, req.requestId) }, id: null });
  };
}

const MCP_BODY_LIMIT = 8 * 1024 * 1024;

/** The HTTP server's request listener: the Express app, with the hot capability routes in front of it (core/hot-path.ts). */
export function createApp(catalog: Catalog, services: Services): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  // A body hash per JSON answer costs more than it saves: API answers change with every write, and
  // the assets that benefit (app, widget) set their own ETag.
  app.set('etag', false);
  app.set('trust proxy', services.config.trustProxy);
  app.set('query parser', 'simple');
  const log = accessLog(services.log);
  app.use(requestId);
  app.use(log);
  app.use(queryGuard);
  // REST routes parse their own bodies (limits differ per route; some are multipart).
  // A tool call may carry a transcript of up to 5 MiB (SPEC 8), a little more once escaped in JSON.
  const mcpRead = [mcpBody(MCP_BODY_LIMIT), mcpBodyError(services)];
  app.use('/mcp', ...mcpRead);

  app.get('/', (_req, res) => {
    const base = services.baseUrl();
    res.json({ name: 'Verbatim', version: VERSION, docs: `${base}/api/docs`, openapi: `${base}/api/openapi`, mcp: `${base}/mcp` });
  });

  let openapi: unknown = null;
  app.get('/api/openapi', (_req, res) => {
    openapi ??= openApiDocument(catalog.capabilities, { serverUrl: services.baseUrl(), version: VERSION });
    res.json(openapi);
  });
  // Where tools look for it first (Swagger, generators): the same document.
  app.get(['/openapi.json', '/api/openapi.json'], (_req, res) => res.redirect(308, '/api/openapi'));
  const mcp = createMcpEndpoint(catalog, services, VERSION);
  const mcpPost = async (req: Request, res: Response, next: NextFunction) => {
    try {
      // DNS-rebinding protection: a browser page may call only from our own origin.
      const origin = req.get('origin');
      if (origin && origin !== new URL(services.baseUrl()).origin && !services.config.allowedOrigins.includes(origin)) {
        throw new ForbiddenError('Origin not allowed', { code: 'origin_not_allowed' });
      }
      const principal = await authenticate(services, bearerFrom(req), `${services.baseUrl()}/mcp`);
      if (!principal) throw new AuthenticationError('Authentication required: send Authorization: Bearer <token>');
      await mcp(req, res, principal);
    } catch (err) {
      if (err instanceof AppError && err.status === 401) {
        // RFC 6750: a token that was sent and refused (expired, revoked, wrong audience) is invalid_token, so clients refresh.
        const invalid = bearerFrom(req) ? 'error="invalid_token", ' : '';
        res.setHeader('WWW-Authenticate', `Bearer ${invalid}resource_metadata="${services.baseUrl()}/.well-known/oauth-protected-resource/mcp"`);
      }
      next(err);
    }
  };
  app.post('/mcp', mcpPost);
  app.all('/mcp', (_req, res) => {
    res.setHeader('Allow', 'POST');
    res.status(405).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, use POST' }, id: null });
  });

  app.use('/api/sdk', sdkCors());
  // Routes outside the capability registry. None is on a hot path (core/hot-path.ts), so those
  // requests skip this whole group instead of testing each of its routes.
  const edge = express.Router();
  for (const routes of [
    docsRouter(),
    widgetRoutes(services),
    appRoutes(services),
    publicIconRoutes(services),
    billingWebhookRoutes(services),
    codehostWebhook(services),
    trackerWebhook(services),
    storageRoutes(services),
    recordingPages(services),
    agentRoutes(services),
    sessionRoutes(services),
    oauthRoutes(services),
    signInRoutes(services),
    emailCodeRoutes(services),
    linkingRoutes(services),
  ])
    edge.use(routes);
  app.use((req, res, next) => (isHotPath(req.path) ? next() : edge(req, res, next)));
  const rest = restRouter(catalog.capabilities, services, (cap) =>
    cap.rateLimit ? routeLimiter(services.db.pool, cap.name, cap.rateLimit) : null,
  );
  app.use(rest);
  app.use(['/api', '/agent'], apiNotFound);
  const onError = errorHandler(services.log);
  app.use(onError);
  // The same layers as the app runs for these requests, without the walk past all the others.
  const hotRest = [requestId, log, queryGuard, rest, apiNotFound, onError];
  const hotMcp = [requestId, log, queryGuard, ...mcpRead, mcpPost, onError];
  return withHotPath(app, (path, method) => (isHotPath(path) ? hotRest : path === '/mcp' && method === 'POST' ? hotMcp : null));
}
