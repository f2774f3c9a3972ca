import express from 'express';

/**
 * Bare Express hello-world: the ceiling this machine gives any Express app. `GET /page` answers
 * whatever JSON was last `PUT /page`: the ceiling for an answer of that size.
 */
const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});
let page: unknown = null;
app.put('/page', express.json({ limit: '1mb' }), (req, res) => {
  page = req.body;
  res.status(204).end();
});
app.get('/page', (_req, res) => {
  res.json(page);
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
