import express, { type Router } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Verbatim API</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>`;

const init = `window.ui = SwaggerUIBundle({ url: '/api/openapi', dom_id: '#docs', deepLinking: true, persistAuthorization: true });`;

/** Interactive docs rendered from /api/openapi with Swagger UI, served from the package (no CDN). */
export function docsRouter(): Router {
  const router = express.Router();
  router.get('/api/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    res.type('html').send(page);
  });
  router.get('/api/docs/init.js', (_req, res) => res.type('application/javascript').send(init));
  router.use('/api/docs/assets', express.static(assets, { index: false, maxAge: '1h' }));
  return router;
}
