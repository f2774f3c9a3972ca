import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import type { Services } from '../core/context.ts';
import { escapeHtml } from '../core/html.ts';

const entry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../widget/index.ts');

/** The widget bundle, built once per process from widget/ (no build step before `npm start`). */
let bundle: Promise<{ code: string; etag: string }> | null = null;
export function widgetBundle(): Promise<{ code: string; etag: string }> {
  bundle ??= import('esbuild')
    .then(({ build }) => build({ entryPoints: [entry], bundle: true, minify: true, format: 'iife', target: 'es2020', write: false, legalComments: 'none' }))
    .then((r) => {
      const code = r.outputFiles[0].text;
      return { code, etag: `"${createHash('sha256').update(code).digest('base64url').slice(0, 16)}"` };
    })
    .catch((err) => {
      bundle = null;
      throw err;
    });
  return bundle;
}


/** A sample shop that embeds the widget, to see it working: `/sdk/demo?key=<SDK key>&path=/checkout`. */
function demoPage(base: string, key: string | null, pathname: string): string {
  const snippet = key
    ? `<script src="${escapeHtml(base)}/sdk/widget.js" data-project-key="${escapeHtml(key)}" data-pathname="${escapeHtml(pathname)}" async></script>`
    : '<p class="note">Add <code>?key=&lt;your project SDK key&gt;</code> to this address to load your widget (GET P/widget-setup shows the key).</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Analytics — widget demo</title>
<style>
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #222; background: #f6f6f9; }
header { display: flex; gap: 24px; align-items: center; padding: 16px 32px; background: #fff; border-bottom: 1px solid #e3e3ea; }
header strong { font-size: 20px; } nav a { margin-right: 16px; color: #334; }
main { max-width: 880px; margin: 32px auto; padding: 0 24px; }
.card { background: #fff; border: 1px solid #e3e3ea; border-radius: 12px; padding: 24px; margin-bottom: 16px; }
button.export { padding: 8px 14px; border-radius: 8px; border: 1px solid #99a; background: #fff; }
.note { background: #fff8dc; padding: 12px; border-radius: 8px; }
</style>
</head>
<body>
<header><strong>Acme Analytics</strong><nav><a href="?${key ? `key=${escapeHtml(encodeURIComponent(key))}&amp;` : ''}path=/">Home</a><a href="?${key ? `key=${escapeHtml(encodeURIComponent(key))}&amp;` : ''}path=/checkout">Checkout</a></nav></header>
<main>
<div class="card"><h1>Monthly revenue</h1><p>Revenue grew 12% in October. Export the report to share it with your team.</p><button class="export" type="button">Export report</button></div>
<div class="card"><h2>This page is a demo</h2><p>It embeds the Verbatim widget with one script tag, as a customer's site would, and asks which study applies to <code>${escapeHtml(pathname)}</code>.</p></div>
${snippet}
</main>
</body>
</html>`;
}

export function widgetRoutes(services: Services): Router {
  const router = express.Router();
  router.get('/sdk/widget.js', async (req, res, next) => {
    try {
      const { code, etag } = await widgetBundle();
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.setHeader('ETag', etag);
      if (req.get('if-none-match') === etag) return void res.status(304).end();
      res.type('application/javascript').send(code);
    } catch (err) {
      next(err);
    }
  });
  router.get('/sdk/demo', (req, res) => {
    const key = typeof req.query.key === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(req.query.key) ? req.query.key : null;
    const p = typeof req.query.path === 'string' && /^\/[^\s<>"']{0,200}$/.test(req.query.path) ? req.query.path : '/';
    res.setHeader('Content-Security-Policy', `default-src 'self'; script-src 'self'; connect-src 'self' ${services.baseUrl().replace(/^http/, 'ws')}; img-src * data:; style-src 'self' 'unsafe-inline'`);
    res.type('html').send(demoPage(services.baseUrl(), key, p));
  });
  return router;
}
