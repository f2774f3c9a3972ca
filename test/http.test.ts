import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { z } from 'zod';
import { capability } from '../core/registry.ts';
import { readOnly } from '../tools/common.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/** Test-only: a deprecated capability; nothing in the product is deprecated. */
const legacyEcho = capability({
  name: 'testing.legacy_echo',
  title: 'Legacy echo (test only)',
  description: 'Echoes its input; exists only to test deprecation headers.',
  input: z.strictObject({ text: z.string().max(100) }),
  output: z.object({ text: z.string() }),
  annotations: readOnly,
  scope: 'read',
  access: 'public',
  mcp: false,
  deprecated: { since: '2026-01-01', sunset: '2027-06-30', link: 'https://example.com/migrate' },
  rest: { method: 'GET', path: '/api/testing/legacy-echo' },
  async handler(_ctx, input) {
    return { text: input.text };
  },
});

/** Test-only: a public capability that takes a JSON body. */
const postEcho = capability({
  name: 'testing.post_echo',
  title: 'Post echo (test only)',
  description: 'Echoes its body; exists only to test body types.',
  input: z.strictObject({ text: z.string().max(100).optional() }),
  output: z.object({ text: z.string() }),
  annotations: readOnly,
  scope: 'read',
  access: 'public',
  mcp: false,
  rest: { method: 'POST', path: '/api/testing/post-echo' },
  async handler(_ctx, input) {
    return { text: input.text ?? '(none)' };
  },
});

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ extra: { capabilities: [legacyEcho, postEcho] } });
});
afterAll(() => svc?.stop());

describe('OpenAPI and docs', () => {
  it('serves an OpenAPI 3.1 document that a standard validator accepts', async () => {
    const res = await svc.api('GET', '/api/openapi');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(res.body));
    const ops = Object.values(res.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
    const rest = svc.catalog.capabilities.flatMap((c) => (c.rest ? [c.name, ...(c.rest.aliases ?? []).map((_, i) => `${c.name}.alias${i + 1}`)] : []));
    expect(ops.sort()).toEqual(rest.sort());
    // /openapi.json, where tools look first, leads to it.
    const guessed = await fetch(`${svc.url}/openapi.json`, { redirect: 'manual' });
    expect([guessed.status, guessed.headers.get('location')]).toEqual([308, '/api/openapi']);
    const create = res.body.paths['/api/orgs/{orgHandle}/projects'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name']);
    expect(create.responses['201'].content['application/json'].schema.properties.project).toBeTruthy();
    expect(create.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiErrorResponse');
    const resolve = res.body.paths['/api/me/project-resolve'].get;
    expect(resolve.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort()).toEqual(['query:org', 'query:project']);
    expect(res.body['x-api-versioning']).toEqual({ major_version: 1, scheme: 'implicit-path', minimum_sunset_notice_days: 90 });
    expect(res.body.paths['/api/testing/legacy-echo'].get.deprecated).toBe(true);
  });

  it('serves interactive docs from the same document, without a CDN', async () => {
    const page = await fetch(`${svc.url}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/docs/assets/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    expect((await fetch(`${svc.url}/api/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    expect(await (await fetch(`${svc.url}/api/docs/init.js`)).text()).toContain("url: '/api/openapi'");
  });
});

describe('errors, ids and versioning', () => {
  it('answers unknown /api routes with a 404 envelope and a request id', async () => {
    const res = await svc.api('GET', '/api/nope/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: expect.stringContaining('/api/nope/nothing'), code: 'route_not_found' });
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
  });

  it('keeps a safe caller-supplied request id and replaces an unsafe one', async () => {
    const kept = await svc.api('GET', '/api/health', { headers: { 'x-request-id': 'trace-1234567890' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-1234567890');
    const replaced = await svc.api('GET', '/api/health', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('sends Deprecation, Link and Sunset on a deprecated capability', async () => {
    const res = await svc.api('GET', '/api/testing/legacy-echo?text=hi');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'hi' });
    expect(res.headers.get('deprecation')).toBe(`@${Date.parse('2026-01-01') / 1000}`);
    expect(res.headers.get('link')).toBe('<https://example.com/migrate>; rel="deprecation"; type="text/html"');
    expect(res.headers.get('sunset')).toBe(new Date('2027-06-30').toUTCString());
    const normal = await svc.api('GET', '/api/health');
    expect(normal.headers.get('deprecation')).toBeNull();
  });

  it('refuses unknown query parameters and coerces typed ones', async () => {
    const res = await svc.api('GET', '/api/testing/legacy-echo?text=hi&other=1');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/other/);
  });

  it('asks for JSON when a body comes in another type, rather than reporting its fields missing', async () => {
    expect((await svc.api('POST', '/api/testing/post-echo', { body: { text: 'hi' } })).body).toEqual({ text: 'hi' });
    const plain = await svc.api('POST', '/api/testing/post-echo', { raw: '{"text":"hi"}', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(plain.body).toMatchObject({ code: 'unsupported_media_type', error: expect.stringContaining('application/json') });
    // JSON under a structured-syntax type is JSON; an empty body of any type, or none, is no fields.
    expect((await svc.api('POST', '/api/testing/post-echo', { raw: '{"text":"merge"}', headers: { 'content-type': 'application/merge-patch+json' } })).body).toEqual({ text: 'merge' });
    expect((await svc.api('POST', '/api/testing/post-echo', { raw: ' ', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).body).toEqual({ text: '(none)' });
    expect((await svc.api('POST', '/api/testing/post-echo')).body).toEqual({ text: '(none)' });
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${svc.url}/api/testing/post-echo`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      req.on('error', reject);
      req.end();
    });
    expect(chunked).toBe(200);
  });

  it('serves health and the changelog publicly', async () => {
    const health = await svc.api('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', environment: 'test', checks: { encryption_key: true, database: true } });
    const changelog = await svc.api('GET', '/api/changelog');
    expect(changelog.status).toBe(200);
    expect(changelog.body.api_major_version).toBe(1);
    expect(changelog.body.releases[0]).toMatchObject({ version: expect.any(String), changes: expect.any(Array) });
  });
});
