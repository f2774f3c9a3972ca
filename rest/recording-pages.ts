import express, { type Response, type Router } from 'express';
import { randomBytes } from 'node:crypto';
import type { Services } from '../core/context.ts';
import { AppError } from '../core/errors.ts';
import { effectiveStatus } from '../tools/recordings/record.ts';
import { CLOSED, invitationByToken } from '../tools/recordings/launch-access.ts';
import { recordingForView } from '../tools/recordings/view-access.ts';
import { launchPage, messagePage, viewPage } from '../tools/recordings/pages.ts';

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

function send(res: Response, status: number, html: (nonce: string) => string, opts: { script?: boolean; media?: string; embeddable?: boolean } = {}): void {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    opts.script ? `script-src 'nonce-${nonce}'; connect-src 'self'` : null,
    opts.media ? `media-src ${opts.media}` : null,
    "base-uri 'none'",
    "form-action 'none'",
    opts.embeddable ? 'frame-ancestors *' : "frame-ancestors 'none'",
  ].filter(Boolean);
  res.setHeader('Content-Security-Policy', csp.join('; '));
  // The path is the credential: never hand it to the sites the page links to.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.status(status).type('html').send(html(nonce));
}

const notFound = (res: Response) => send(res, 404, (n) => messagePage('Link not found', 'This recording link does not exist. Check that you copied all of it.', n));

/**
 * The guest's side of a recording invitation: the launch page that records and uploads
 * (`/r/:launchToken`) and, when the inviter turned it on, the viewing page (`/r/view/:viewToken`).
 */
export function recordingPages(services: Services): Router {
  const router = express.Router();
  const fail = (res: Response, err: unknown) => {
    if (err instanceof AppError && err.status === 404) return notFound(res);
    services.log.error('recording page failed', { error: err instanceof Error ? err.stack ?? err.message : String(err) });
    send(res, 500, (n) => messagePage('Something went wrong', 'The page could not be loaded. Please try again in a minute.', n));
  };

  router.get('/r/view/:viewToken', async (req, res) => {
    try {
      if (!TOKEN.test(req.params.viewToken)) return notFound(res);
      const view = await recordingForView(services, req.params.viewToken);
      if (view.kind === 'missing') return send(res, 404, (n) => messagePage('Recording not shared', 'This viewing link is not turned on.', n), { embeddable: true });
      if (view.kind === 'pending') return send(res, 404, (n) => messagePage(view.plan.title, 'The recording is not available yet.', n), { embeddable: true });
      send(res, 200, (n) => viewPage(view.plan, view.url, view.mimeType, n), { media: new URL(view.url).origin, embeddable: true });
    } catch (err) {
      fail(res, err);
    }
  });

  router.get('/r/:launchToken', async (req, res) => {
    try {
      if (!TOKEN.test(req.params.launchToken)) return notFound(res);
      const row = await invitationByToken(services, req.params.launchToken);
      const status = effectiveStatus(row);
      const closed = CLOSED[status];
      if (closed) return send(res, 410, (n) => messagePage('This link no longer works', `${closed.message} Ask the person who sent it for a new one.`, n));
      if (status === 'completed') return send(res, 200, (n) => messagePage(row.plan.title, 'This recording is complete. Thank you!', n));
      send(res, 200, (n) => launchPage(row.plan, row.launch_token, n, status !== 'invited'), { script: true });
    } catch (err) {
      fail(res, err);
    }
  });
  return router;
}
