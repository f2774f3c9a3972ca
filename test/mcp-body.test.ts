import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';

/**
 * core/mcp-body.ts reads a plain `Content-Type: application/json` body itself; with a charset
 * parameter the body goes through body-parser (rest/json-body.ts). Each body here is sent both
 * ways with the same X-Request-Id, and the answers must be the same.
 */
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let n = 0;

beforeAll(async () => {
  svc = await startTestService();
  o = await ownerWithProject(svc, 'mcp-body@example.com', 'Bodies');
});
afterAll(() => svc?.stop());

async function post(body: string | Buffer, contentType: string, requestId: string) {
  const res = await fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/json, text/event-stream', authorization: `Bearer ${o.token}`, 'x-request-id': requestId },
    body,
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The answer to `body`, after checking body-parser's path answers it the same. */
async function both(body: string | Buffer) {
  const requestId = `mcp-body-test-${n++}`;
  const lean = await post(body, 'application/json', requestId);
  const general = await post(body, 'application/json; charset=utf-8', requestId);
  expect(lean).toEqual(general);
  return lean;
}

const call = (projectRef: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'projects.get', arguments: { projectRef } } });

describe('the /mcp body is read as body-parser reads it', () => {
  it('a request, also after a BOM or whitespace', async () => {
    expect(JSON.parse((await both(call(o.project.project_ref))).text).result.structuredContent.project.name).toBe('Bodies');
    expect((await both(`\uFEFF${call(o.project.project_ref)}`)).status).toBe(200);
    expect((await both(` \r\n\t${call(o.project.project_ref)}`)).status).toBe(200);
    expect((await both('[]')).status).toBe(202);
  });

  it('bytes that are not UTF-8 become replacement characters', async () => {
    const bad = Buffer.concat([Buffer.from(call(o.project.project_ref).replace(/"projectRef":"/, '"projectRef":"\u0001')), Buffer.from([0xff, 0xfe, 0xc3])]);
    const bytes = Buffer.from(call('é/😀').replace('é', 'X'));
    expect((await both(bad)).status).toBe(400);
    expect((await both(Buffer.concat([bytes.subarray(0, 60), Buffer.from([0xc3]), bytes.subarray(60)]))).status).toBe(200);
  });

  it('an empty body, a value that is not an object or array, malformed or too deep JSON, a body over the limit', async () => {
    const empty = await both('');
    expect(empty.status).toBe(400);
    for (const body of ['1', '"text"', 'null', ' true', '{"jsonrpc": "2.0", "id": 1, "method": ', '\u00a0{}', 'x']) {
      const res = await both(body);
      expect(res.status, body).toBe(400);
      expect(JSON.parse(res.text).error.code, body).toBe(-32700);
    }
    const deep = await both(`${'['.repeat(200)}${']'.repeat(200)}`);
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.text).error.data.code).toBe('too_deep');
    const big = await both(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(8_500_000) } }));
    expect(big.status).toBe(413);
  });
});
