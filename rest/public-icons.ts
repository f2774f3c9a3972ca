import express, { type Router } from 'express';
import type { Services } from '../core/context.ts';
import { NotFoundError } from '../core/errors.ts';
import { selectRows } from '../core/sql.ts';
import { sendObject } from './storage-routes.ts';

/**
 * Site icons stored at publish time (SPEC 4.1). Bytes cannot come out of a capability, so
 * this is a plain route: public, only the file the listing points at, never a suspended one.
 */
export function publicIconRoutes(services: Services): Router {
  const router = express.Router();
  router.get('/api/public/leaderboard/icons/:hostname/:file', async (req, res, next) => {
    try {
      const [row] = await selectRows<{ icon_key: string; icon_content_type: string }>(
        services,
        `SELECT icon_key, icon_content_type FROM public_listings WHERE hostname = $1 AND icon_file = $2 AND status <> 'suspended'`,
        [req.params.hostname.toLowerCase(), req.params.file],
      );
      const head = row && (await services.storage.head(row.icon_key));
      if (!row || !head) throw new NotFoundError('Icon not found');
      res.setHeader('Content-Type', row.icon_content_type);
      res.setHeader('Content-Length', String(head.size));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      await sendObject(req, res, services.log, () => services.storage.get(row.icon_key));
    } catch (err) {
      next(err);
    }
  });
  return router;
}
