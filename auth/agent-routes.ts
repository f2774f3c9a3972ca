import express, { type Request, type Response, type NextFunction, type Router } from 'express';
import type { Services } from '../core/context.ts';
import { routeLimiter } from '../core/rate-limit.ts';
import { claim, complete, register } from './agent/registration.ts';
import { revokeByLogoutToken } from './agent/assertions.ts';
import { AppError } from '../core/errors.ts';
import { refuseUnsafeText } from '../core/input-guard.ts';
import { jsonBody } from '../rest/json-body.ts';

type Handler = (deps: { services: Services; tokenKey: Services['agentTokenKey'] }, body: unknown) => Promise<unknown>;

/**
 * The agent self-registration endpoints (SPEC 4.4): protocol routes at the edge, limited per
 * IP as SPEC 8 says. Claim-producing registrations also share a 5-request bucket.
 */
export function agentRoutes(services: Services): Router {
  const router = express.Router();
  const json = jsonBody('16kb');
  const pool = services.db.pool;
  const run = (fn: Handler) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      refuseUnsafeText(req.body);
      res.json(await fn({ services, tokenKey: services.agentTokenKey }, req.body ?? {}));
    } catch (err) {
      next(err);
    }
  };
  const claimProducing = routeLimiter(pool, 'agent.register.claims', 5);
  const onlyClaimProducing = (req: Request, res: Response, next: NextFunction) => {
    const t = (req.body as { type?: string; assertion_type?: string } | undefined) ?? {};
    const produces = t.type === 'anonymous' || (t.type === 'identity_assertion' && t.assertion_type === 'verified_email');
    return produces ? claimProducing(req, res, next) : next();
  };
  router.post('/agent/auth', routeLimiter(pool, 'agent.register', 30), json, onlyClaimProducing, run(register));
  router.post('/agent/auth/claim', routeLimiter(pool, 'agent.claim', 5), json, run(claim));
  router.post('/agent/auth/claim/complete', routeLimiter(pool, 'agent.claim.complete', 10), json, run(complete));
  // Logout tokens come as application/logout+jwt (preferred), a form field or JSON.
  router.post(
    '/agent/auth/revoke',
    routeLimiter(pool, 'agent.revoke', 60),
    express.text({ type: 'application/logout+jwt', limit: '16kb' }),
    express.urlencoded({ extended: false, limit: '16kb' }),
    json,
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const token = typeof req.body === 'string' ? req.body.trim() : (req.body as { logout_token?: unknown } | undefined)?.logout_token;
        if (typeof token !== 'string' || !token) throw new AppError(400, 'Send a logout token', { code: 'invalid_request' });
        refuseUnsafeText(token, ['logout_token']);
        const revoked = await revokeByLogoutToken(services, token);
        res.json({ success: true, revoked_credentials: revoked });
      } catch (err) {
        next(err);
      }
    },
  );
  return router;
}
