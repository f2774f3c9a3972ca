import http from 'node:http';
import express, { type Request, type Response, type NextFunction, type Router } from 'express';
import type { Services } from '../../core/context.ts';
import { AuthenticationError, NotFoundError, ValidationError } from '../../core/errors.ts';
import { authenticate, bearerFrom } from '../principal.ts';
import { routeLimiter } from '../../core/rate-limit.ts';
import { ipKeyGenerator } from 'express-rate-limit';
import { sha256 } from '../agent/tokens.ts';
import { OIDC_SCOPES, RESOURCE_SCOPES, mcpResource } from './provider.ts';
import { escapeHtml } from '../../core/html.ts';
import { jsonBody } from '../../rest/json-body.ts';
import { refuseUnsafeText } from '../../core/input-guard.ts';

/**
 * oidc-provider's own discovery document, asked of this very process over the socket the
 * request came in on (never the public address, which a server behind a proxy may not reach),
 * with the public host so the endpoint URLs come out right.
 */
function providerDiscovery(req: Request, base: string): Promise<Record<string, unknown>> {
  const pub = new URL(base);
  return new Promise((resolve, reject) => {
    http
      .get(
        {
          host: req.socket.localAddress,
          port: req.socket.localPort,
          path: '/api/oauth/.well-known/openid-configuration',
          headers: { host: pub.host, 'x-forwarded-proto': pub.protocol.replace(':', '') },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => {
            try {
              resolve(JSON.parse(body) as Record<string, unknown>);
            } catch (err) {
              reject(err);
            }
          });
        },
      )
      .on('error', reject);
  });
}


/** What the consent screen and API show about a pending authorization. */
async function describe(services: Services, uid: string) {
  const { provider } = await services.oauth();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) throw new NotFoundError('This authorization request has expired or does not exist', { code: 'request_not_found' });
  const params = interaction.params as Record<string, string | undefined>;
  const client = await provider.Client.find(params.client_id ?? '');
  if (!client) throw new NotFoundError('Unknown client');
  const requested = (params.scope ?? '').split(' ').filter(Boolean);
  return {
    interaction,
    client,
    details: {
      request: uid,
      client_id: client.clientId,
      client_name: (client.clientName as string | undefined) ?? client.clientId,
      redirect_host: new URL(params.redirect_uri ?? '').host,
      scopes: requested,
      resource: params.resource ?? mcpResource(services.baseUrl()),
    },
  };
}

async function signedIn(services: Services, req: Request) {
  const principal = await authenticate(services, bearerFrom(req));
  if (!principal || principal.kind !== 'user') throw new AuthenticationError('Sign in first: the consent is given by a signed-in person', { code: 'sign_in_required' });
  return principal;
}

/**
 * Consent for OAuth clients, scriptable and in a browser: the interaction page, the request
 * details and the decision. The provider itself serves /authorize, /token, /register.
 */
export function oauthRoutes(services: Services): Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '4kb' });
  const json = jsonBody('4kb');

  router.get('/api/oauth/interaction/:uid', async (req, res, next) => {
    try {
      res.setHeader('X-Frame-Options', 'DENY');
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
      const { details } = await describe(services, req.params.uid);
      const principal = await authenticate(services, bearerFrom(req)).catch(() => null);
      if (!principal && services.config.signIn.clientId) {
        // Sign in first, then come back to this consent page.
        return res.redirect(302, `/api/auth/google/login?return_to=${encodeURIComponent(req.originalUrl)}`);
      }
      if (!principal) {
        res.status(401).type('html').send(`<!doctype html><title>Sign in</title><p>Sign in to Verbatim to let <b>${escapeHtml(details.client_name)}</b> use your account, then reload this page.</p>`);
        return;
      }
      res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Allow ${escapeHtml(details.client_name)}?</title></head>
<body style="font-family:system-ui;max-width:32rem;margin:3rem auto">
<h1>Allow <b>${escapeHtml(details.client_name)}</b> to use Verbatim?</h1>
<p>It will return to <code>${escapeHtml(details.redirect_host)}</code> and may: ${details.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ') || 'read your account'}.</p>
<form method="post" action="/api/oauth/authorize/decision">
<input type="hidden" name="request" value="${escapeHtml(details.request)}">
<button name="decision" value="approve">Allow</button> <button name="decision" value="deny">Deny</button>
</form></body></html>`);
    } catch (err) {
      next(err);
    }
  });

  router.get('/api/oauth/authorize/request', async (req, res, next) => {
    try {
      await signedIn(services, req);
      if (typeof req.query.request !== 'string') throw new ValidationError('request: the authorization request id is required');
      res.json((await describe(services, req.query.request)).details);
    } catch (err) {
      next(err);
    }
  });

  router.post('/api/oauth/authorize/decision', form, json, async (req, res, next) => {
    try {
      const principal = await signedIn(services, req);
      const body = (req.body ?? {}) as { request?: unknown; decision?: unknown };
      if (typeof body.request !== 'string') throw new ValidationError('request: the authorization request id is required');
      if (body.decision !== 'approve' && body.decision !== 'deny') throw new ValidationError('decision: must be "approve" or "deny"');
      const { provider } = await services.oauth();
      const { interaction, details } = await describe(services, body.request);
      if (body.decision === 'deny') {
        interaction.result = { error: 'access_denied', error_description: 'The user denied the request' };
      } else {
        const grant = new provider.Grant({ accountId: principal.userId, clientId: details.client_id });
        // Resource scopes are also OP scopes here (they are in the provider's scope list).
        grant.addOIDCScope(details.scopes.filter((s) => OIDC_SCOPES.includes(s) || RESOURCE_SCOPES.includes(s)).join(' ') || 'openid');
        grant.addResourceScope(details.resource, details.scopes.filter((s) => RESOURCE_SCOPES.includes(s)).join(' ') || 'agent:read');
        interaction.result = { login: { accountId: principal.userId }, consent: { grantId: await grant.save() } };
      }
      await interaction.save(Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000)));
      const redirect_to = interaction.returnTo;
      if (req.is('application/x-www-form-urlencoded')) return res.redirect(303, redirect_to);
      res.json({ redirect_to });
    } catch (err) {
      next(err);
    }
  });

  router.get('/.well-known/jwks.json', async (_req, res, next) => {
    try {
      res.json((await services.oauth()).publicJwks);
    } catch (err) {
      next(err);
    }
  });

  let metadata: Record<string, unknown> | null = null;
  // RFC 8414 puts the issuer's path after the well-known name; clients try both forms.
  router.get(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/.well-known/oauth-authorization-server/api/oauth', '/.well-known/openid-configuration/api/oauth'], async (req, res, next) => {
    try {
      const base = services.baseUrl();
      metadata ??= await providerDiscovery(req, base);
      const doc = { ...metadata, code_challenge_methods_supported: ['S256'], authorization_response_iss_parameter_supported: true };
      if (req.path.startsWith('/.well-known/oauth-authorization-server')) {
        Object.assign(doc, {
          agent_auth: {
            skill: `${base}/api/docs`,
            register_uri: `${base}/agent/auth`,
            claim_uri: `${base}/agent/auth/claim`,
            revocation_uri: `${base}/agent/auth/revoke`,
            identity_types_supported: ['identity_assertion', 'anonymous'],
            anonymous: { credential_types_supported: ['api_key'] },
            identity_assertion: { assertion_types_supported: ['urn:ietf:params:oauth:token-type:id-jag', 'verified_email'], credential_types_supported: ['access_token'] },
            events_supported: ['urn:service:agent-auth:event:identity-assertion-revoked'],
            trusted_issuers: (await services.db.pool.query<{ issuer: string }>(`SELECT issuer FROM agent_providers ORDER BY issuer`)).rows.map((r) => r.issuer),
          },
        });
      }
      res.json(doc);
    } catch (err) {
      next(err);
    }
  });

  const protectedResource = (resource: string) => ({
    resource,
    resource_name: 'Verbatim',
    authorization_servers: [`${services.baseUrl()}/api/oauth`],
    scopes_supported: ['agent:read', 'agent:write', 'openid', 'profile', 'email', 'offline_access'],
    bearer_methods_supported: ['header'],
  });
  router.get('/.well-known/oauth-protected-resource', (_req, res) => res.json(protectedResource(services.baseUrl())));
  router.get(['/.well-known/oauth-protected-resource/mcp', '/mcp/.well-known/oauth-protected-resource/mcp'], (_req, res) => res.json(protectedResource(mcpResource(services.baseUrl()))));

  // SPEC 8's OAuth lanes. The token form is read here to find the client and grant;
  // oidc-provider then uses the parsed body.
  const pool = services.db.pool;
  const clientOf = (req: Request): string | null => {
    const fromBody = (req.body as Record<string, unknown> | undefined)?.client_id;
    if (typeof fromBody === 'string' && fromBody) return fromBody;
    const basic = /^Basic\s+(.+)$/i.exec(req.get('authorization') ?? '');
    return basic ? decodeURIComponent(Buffer.from(basic[1], 'base64').toString().split(':')[0]) : null;
  };
  const grantOf = (req: Request) => String((req.body as Record<string, unknown> | undefined)?.grant_type ?? '');
  const ip = (req: Request) => ipKeyGenerator(req.ip ?? 'unknown');
  // Bodies are read here (oidc-provider then uses them) so text Postgres cannot hold, and nesting
  // nothing should recurse over, is refused before the rate limiters or the provider's adapter see it.
  const refuseUnsafe = (req: Request, _res: Response, next: NextFunction) => {
    try {
      refuseUnsafeText(req.body ?? {});
      const client = clientOf(req);
      if (client) refuseUnsafeText(client, ['client_id']);
      next();
    } catch (err) {
      next(err);
    }
  };
  router.use('/api/oauth/authorize', routeLimiter(pool, 'oauth.authorize', 20));
  router.post('/api/oauth/register', jsonBody('256kb'), refuseUnsafe, routeLimiter(pool, 'oauth.register', 120));
  router.post(
    '/api/oauth/token',
    express.urlencoded({ extended: false, limit: '56kb' }),
    refuseUnsafe,
    routeLimiter(pool, 'oauth.token.anonymous', 30, { key: (req) => (clientOf(req) ? null : ip(req)) }),
    routeLimiter(pool, 'oauth.token.rejected', 240, { key: (req) => `${grantOf(req)}:${ip(req)}`, onlyFailures: true }),
    routeLimiter(pool, 'oauth.token.exchange', 600, { key: (req) => (grantOf(req) === 'authorization_code' ? clientOf(req) : null), onlySuccesses: true, reason: 'client_throttle' }),
    routeLimiter(pool, 'oauth.token.refresh', 600, { key: (req) => (grantOf(req) === 'refresh_token' ? clientOf(req) : null), onlySuccesses: true, reason: 'client_throttle' }),
    routeLimiter(pool, 'oauth.token.refresh_token', 30, {
      key: (req) => {
        const token = (req.body as Record<string, unknown> | undefined)?.refresh_token;
        return grantOf(req) === 'refresh_token' && typeof token === 'string' ? `${clientOf(req)}:${sha256(token)}` : null;
      },
      reason: 'client_throttle',
    }),
  );
  router.all(
    '/api/oauth/register/:clientId',
    jsonBody('256kb'),
    refuseUnsafe,
    routeLimiter(pool, 'oauth.registration.manage', 20, { key: (req) => String(req.params.clientId), onlySuccesses: true, reason: 'client_throttle' }),
    routeLimiter(pool, 'oauth.registration.rejected', 240, { onlyFailures: true }),
  );
  router.use('/api/oauth', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { provider } = await services.oauth();
      await provider.callback()(req, res);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
