import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import type { Services } from '../core/context.ts';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../app');

interface Asset {
  body: string;
  etag: string;
  type: string;
}
const asset = (body: string, type: string): Asset => ({ body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` });

/** app/styles.css, then each area's app/styles/*.css in name order. */
function stylesheet(): string {
  const areas = path.join(dir, 'styles');
  const files = fs.existsSync(areas) ? fs.readdirSync(areas).filter((f) => f.endsWith('.css')).sort().map((f) => path.join(areas, f)) : [];
  return [path.join(dir, 'styles.css'), ...files].map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

/** The workspace bundle (React from app/), built once per process on first use: no build step before `npm start`. */
let bundle: Promise<{ js: Asset; css: Asset }> | null = null;
export function appBundle(): Promise<{ js: Asset; css: Asset }> {
  bundle ??= import('esbuild')
    .then(({ build }) =>
      build({
        entryPoints: [path.join(dir, 'main.tsx')],
        bundle: true,
        minify: true,
        format: 'esm',
        target: 'es2022',
        jsx: 'automatic',
        define: { 'process.env.NODE_ENV': '"production"' },
        write: false,
        legalComments: 'none',
      }),
    )
    .then((r) => ({ js: asset(r.outputFiles[0].text, 'application/javascript'), css: asset(stylesheet(), 'text/css') }))
    .catch((err) => {
      bundle = null;
      throw err;
    });
  return bundle;
}

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Verbatim</title>
<link rel="stylesheet" href="/app/assets/app.css">
<script type="module" src="/app/assets/app.js"></script>
</head>
<body><div id="root"></div><noscript>The Verbatim workspace needs JavaScript.</noscript></body>
</html>`;

/** `/app`: the research workspace, a client of the public REST API only. */
export function appRoutes(_services: Services): Router {
  const router = express.Router();
  const send = (name: 'js' | 'css'): express.RequestHandler => async (req, res, next) => {
    try {
      const a = (await appBundle())[name];
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('ETag', a.etag);
      if (req.get('if-none-match') === a.etag) return void res.status(304).end();
      res.type(a.type).send(a.body);
    } catch (err) {
      next(err);
    }
  };
  router.get('/app/assets/app.js', send('js'));
  router.get('/app/assets/app.css', send('css'));
  router.get(['/app', /^\/app\/(?!assets\/).*/], (_req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; img-src 'self' data: https:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'");
    res.type('html').send(page);
  });
  return router;
}
