import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withHotPath, type Layer } from '../core/hot-path.ts';

/** The hot path runs its layers as Express would, on Express's own request and response. */
describe('withHotPath', () => {
  let server: http.Server;
  let base: string;
  const seen: string[] = [];

  beforeAll(async () => {
    const app = express();
    app.set('query parser', 'simple');
    app.set('trust proxy', true);
    app.get('/cold', (_req, res) => void res.json({ from: 'app' }));
    const hot: Layer[] = [
      (req: Request, _res: Response, next: NextFunction) => {
        seen.push(`first ${req.originalUrl}`);
        next();
      },
      (req: Request, res: Response, next: NextFunction) => {
        if (req.query.fail === 'sync') throw Object.assign(new Error('thrown'), { status: 418 });
        if (req.query.fail === 'async') return Promise.reject(Object.assign(new Error('rejected'), { status: 409 }));
        if (req.query.fail === 'next') return next(Object.assign(new Error('passed on'), { status: 422 }));
        // Express's prototypes: the app's query parser (simple: no nesting) and trust proxy setting.
        res.json({ query: req.query, ip: req.ip, path: req.path, locals: typeof res.locals });
      },
      (req: Request, res: Response) => {
        seen.push('skipped by an error, never reached otherwise');
        res.end();
      },
      (err: Error & { status: number }, _req: Request, res: Response, _next: NextFunction) => {
        res.status(err.status).json({ error: err.message });
      },
    ];
    server = http.createServer(withHotPath(app, (path) => (path.startsWith('/hot/') ? hot : null)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('runs the layers with the app settings applied, and leaves every other path to the app', async () => {
    const hot = await fetch(`${base}/hot/x?a[b]=1&c=2`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(hot.status).toBe(200);
    expect(await hot.json()).toEqual({ query: { 'a[b]': '1', c: '2' }, ip: '203.0.113.9', path: '/hot/x', locals: 'object' });
    expect(seen).toEqual(['first /hot/x?a[b]=1&c=2']);
    const cold = await fetch(`${base}/cold`);
    expect(await cold.json()).toEqual({ from: 'app' });
    const missing = await fetch(`${base}/neither`);
    expect(missing.status).toBe(404);
  });

  it('sends a thrown error, a rejected promise and next(err) past the request handlers to the error handler', async () => {
    for (const [fail, status, error] of [['sync', 418, 'thrown'], ['async', 409, 'rejected'], ['next', 422, 'passed on']] as const) {
      const res = await fetch(`${base}/hot/x?fail=${fail}`);
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error });
    }
    expect(seen).not.toContain('skipped by an error, never reached otherwise');
  });
});
