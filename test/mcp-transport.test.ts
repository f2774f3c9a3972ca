import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * /mcp serves every request through one long-lived SDK Server: concurrent requests that all
 * use JSON-RPC id 1 must each get their own answer, computed as their own caller, and the
 * Streamable HTTP rules of the SDK's transport still hold.
 */
let svc: TestService;
type User = { token: string; userId: string; orgHandle: string; projectRef: string };
const users: User[] = [];

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function post(token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: { ...HEADERS, authorization: `Bearer ${token}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : null, type: res.headers.get('content-type') };
}

const callTool = (id: number | string, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

beforeAll(async () => {
  svc = await startTestService();
  for (const n of [1, 2, 3, 4]) {
    const login = await svc.login(`concurrent-${n}@example.com`);
    const created = await svc.api('POST', `/api/orgs/${login.orgHandle}/projects`, { token: login.token, body: { name: `Study ${n}` } });
    expect(created.status).toBe(201);
    users.push({ ...login, projectRef: (created.body as { project: { project_ref: string } }).project.project_ref });
  }
});
afterAll(() => svc?.stop());

describe('one shared MCP Server', () => {
  it('answers many concurrent calls with the same JSON-RPC id each as its own caller, for its own project', async () => {
    const calls = Array.from({ length: 48 }, (_, i) => {
      const user = users[i % users.length];
      const id = i % 3 === 0 ? 'same' : 1;
      switch (i % 4) {
        case 0: // the caller's own project
          return { id, user, want: 'own', req: post(user.token, callTool(id, 'projects.get', { projectRef: user.projectRef })) };
        case 1: // another caller's project: not found, whoever else is asking for it at the same moment
          return { id, user, want: 'foreign', req: post(user.token, callTool(id, 'projects.get', { projectRef: users[(i + 1) % users.length].projectRef })) };
        case 2:
          return { id, user, want: 'session', req: post(user.token, callTool(id, 'auth.session', {})) };
        default:
          return { id, user, want: 'list', req: post(user.token, callTool(id, 'projects.list', { orgHandle: user.orgHandle })) };
      }
    });
    const answers = await Promise.all(calls.map((c) => c.req));
    calls.forEach((c, i) => {
      const { status, json } = answers[i];
      expect(status).toBe(200);
      expect(json.id).toBe(c.id);
      const result = json.result as { isError?: boolean; structuredContent?: any; content: Array<{ text: string }> };
      if (c.want === 'own') expect(result.structuredContent.project.project_ref).toBe(c.user.projectRef);
      if (c.want === 'foreign') {
        expect(result.isError).toBe(true);
        expect(JSON.parse(result.content[0].text)).toMatchObject({ status: 404 });
      }
      if (c.want === 'session') expect(result.structuredContent.user.personal_org_handle).toBe(c.user.orgHandle);
      if (c.want === 'list') {
        const refs = (result.structuredContent.projects as Array<{ project_ref: string }>).map((p) => p.project_ref);
        expect(refs).toEqual([c.user.projectRef]);
      }
    });
  });

  it('reads resources and renders prompts concurrently as each caller', async () => {
    const overview = (ref: string) => `service://projects/${ref}/overview`;
    const calls = Array.from({ length: 32 }, (_, i) => {
      const user = users[i % users.length];
      const other = users[(i + 1) % users.length];
      const kind = ['own', 'foreign', 'prompt', 'list'][i % 4];
      const body =
        kind === 'own' || kind === 'foreign'
          ? { method: 'resources/read', params: { uri: overview(kind === 'own' ? user.projectRef : other.projectRef) } }
          : kind === 'prompt'
            ? { method: 'prompts/get', params: { name: 'plan-study', arguments: { projectRef: user.projectRef, question: 'Why do trials stall?' } } }
            : { method: 'resources/list', params: {} };
      return { user, kind, req: post(user.token, { jsonrpc: '2.0', id: 1, ...body }) };
    });
    const answers = await Promise.all(calls.map((c) => c.req));
    calls.forEach(({ user, kind }, i) => {
      const { json } = answers[i];
      expect(json.id).toBe(1);
      if (kind === 'foreign') return expect(json.error.code).toBe(-32002);
      expect(json.error).toBeUndefined();
      if (kind === 'own') expect(json.result.contents[0].uri).toBe(overview(user.projectRef));
      if (kind === 'prompt') expect(json.result.description).toContain(user.projectRef);
      if (kind === 'list') {
        const overviews = (json.result.resources as Array<{ uri: string }>).map((r) => r.uri).filter((u) => u.endsWith('/overview'));
        expect(overviews).toEqual([overview(user.projectRef)]);
      }
    });
  });

  it('answers a batch with an array in request order, even when its ids repeat', async () => {
    const [a, b] = users;
    const { status, json } = await post(a.token, [
      callTool(1, 'projects.get', { projectRef: a.projectRef }),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      callTool(1, 'projects.get', { projectRef: b.projectRef }),
      { jsonrpc: '2.0', id: 'p', method: 'ping' },
    ]);
    expect(status).toBe(200);
    expect(json).toHaveLength(3);
    expect(json.map((r: { id: unknown }) => r.id)).toEqual([1, 1, 'p']);
    expect(json[0].result.structuredContent.project.project_ref).toBe(a.projectRef);
    expect(json[1].result.isError).toBe(true);
    expect(json[2].result).toEqual({});
    const single = await post(a.token, [{ jsonrpc: '2.0', id: 9, method: 'ping' }]);
    expect(single.json).toEqual([{ jsonrpc: '2.0', id: 9, result: {} }]);
  });

  it('negotiates the version on initialize, and serves a client that never initializes', async () => {
    const [a] = users;
    const init = await post(a.token, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.status).toBe(200);
    expect(init.json.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'verbatim' }, capabilities: { tools: {} } });
    const unknown = await post(a.token, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(unknown.json.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    const direct = await post(a.token, callTool(5, 'projects.get', { projectRef: a.projectRef }), { 'mcp-protocol-version': '2025-03-26' });
    expect(direct.json.result.structuredContent.project.project_ref).toBe(a.projectRef);
    const method = await post(a.token, { jsonrpc: '2.0', id: 6, method: 'no/such/method' });
    expect(method.json).toMatchObject({ id: 6, error: { code: -32601 } });
  });

  it('keeps the Streamable HTTP rules of the SDK transport', async () => {
    const [a] = users;
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const wrongAccept = await post(a.token, ping, { accept: 'application/json' });
    expect(wrongAccept).toMatchObject({ status: 406, json: { jsonrpc: '2.0', error: { code: -32000 }, id: null } });
    const wrongType = await post(a.token, JSON.stringify(ping), { 'content-type': 'text/plain' });
    expect(wrongType).toMatchObject({ status: 415, json: { error: { code: -32000 }, id: null } });
    const notRpc = await post(a.token, { hello: 'world' });
    expect(notRpc).toMatchObject({ status: 400, json: { error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' }, id: null } });
    const tooMany = await post(a.token, Array.from({ length: 101 }, (_, i) => ({ ...ping, id: i })));
    expect(tooMany).toMatchObject({ status: 400, json: { error: { code: -32600 } } });
    const badVersion = await post(a.token, ping, { 'mcp-protocol-version': '1999-01-01' });
    expect(badVersion).toMatchObject({ status: 400, json: { error: { code: -32000, message: expect.stringMatching(/Unsupported protocol version/) } } });
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    const twoWithInit = await post(a.token, [init, { ...ping, id: 2 }]);
    expect(twoWithInit).toMatchObject({ status: 400, json: { error: { code: -32600 } } });
    const notification = await post(a.token, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification).toMatchObject({ status: 202, text: '' });
    const response = await post(a.token, { jsonrpc: '2.0', id: 1, result: {} });
    expect(response).toMatchObject({ status: 202, text: '' });
    const ok = await post(a.token, ping, { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION });
    expect(ok).toMatchObject({ status: 200, json: { jsonrpc: '2.0', id: 1, result: {} } });
    expect(ok.type).toMatch(/^application\/json/);
  });

  it('lets a batch cancel only its own requests', async () => {
    const [a] = users;
    // A cancellation for id 1 from another HTTP request reaches nothing: concurrent id-1 calls still answer.
    const pending = Array.from({ length: 6 }, () => post(a.token, callTool(1, 'projects.get', { projectRef: a.projectRef })));
    const stray = await post(a.token, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(stray.status).toBe(202);
    for (const res of await Promise.all(pending)) expect(res.json.result.structuredContent.project.project_ref).toBe(a.projectRef);
    const own = await post(a.token, [{ jsonrpc: '2.0', id: 7, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }]);
    expect(own).toMatchObject({ status: 202, text: '' });
  });
});
