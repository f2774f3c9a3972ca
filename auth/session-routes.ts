import express, { type Router } from 'express';
import type { Services } from '../core/context.ts';
import { authenticate, bearerFrom } from './principal.ts';

/** Logout clears a cookie, so it lives at the edge rather than in a capability. */
export function sessionRoutes(services: Services): Router {
  const router = express.Router();
  router.post('/api/auth/logout', async (req, res, next) => {
    try {
      const principal = await authenticate(services, bearerFrom(req)).catch(() => null);
      if (principal?.sessionId) {
        await services.db.pool.query(`UPDATE user_sessions SET revoked_at = now(), updated_at = now() WHERE id = $1 AND revoked_at IS NULL`, [principal.sessionId]);
        await services.changes.settle();
      }
      res.clearCookie('auth_token', { httpOnly: true, sameSite: 'lax', secure: services.baseUrl().startsWith('https:'), path: '/' });
      res.json({ success: true });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
