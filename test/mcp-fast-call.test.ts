import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';
import { crashTool } from './helpers/crash.ts';
import { fastToolCall } from '../core/mcp-fast-call.ts';

/**
 * A lone tools/call is answered by core/mcp-fast-call.ts; a batch goes through the SDK's
 * Server. The two must write the same bytes: every case here is sent both ways, with the same
 * X-Request-Id (so the error envelopes match), and the lone answer must be the batch's only element.
 */
const crash = crashTool('crash.fast', 'boom at crash.ts:1');

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let readOnly: string;
let requestNo = 0;

beforeAll(async () => {
  svc = await startTestService({ extra: { capabilities: [crash] } });
  o = await ownerWithProject(svc, 'mcp-fast@example.com', 'Ünïcødé "quoted" </script> \u2028 😀');
  const reg = await svc.api('POST', '/agent/auth', { body: { type: 'anonymous', requested_credential_type: 'api_key' } });
  await svc.services.db.pool.query(`UPDATE agent_registrations SET status = 'claimed', user_id = (SELECT id FROM users WHERE email = 'mcp-fast@example.com') WHERE id = $1`, [reg.body.registration_id]);
  await svc.services.db.pool.query(`UPDATE agent_credentials SET scopes = '{agent:read}' WHERE registration_id = $1`, [reg.body.registration_id]);
  readOnly = reg.body.credential;
});
afterAll(() => svc?.stop());

async function post(body: string, requestId: string, token: string, query: string) {
  const res = await fetch(`${svc.url}/mcp${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, 'x-request-id': requestId },
    body,
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The lone message's answer, after checking it is byte for byte the SDK's answer to it in a batch of one. */
async function both(message: Record<string, unknown>, { token = o.token, query = '' } = {}) {
  const requestId = `fast-call-test-${requestNo++}`;
  const lone = await post(JSON.stringify(message), requestId, token, query);
  const batch = await post(JSON.stringify([message]), requestId, token, query);
  expect(batch.status).toBe(200);
  expect(lone.status).toBe(200);
  expect(lone.type).toBe(batch.type);
  expect(`[${lone.text}]`).toBe(batch.text);
  return JSON.parse(lone.text) as { id: unknown; result?: any; error?: any };
}

const call = (params: Record<string, unknown>, id: number | string = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

describe('a lone tools/call is answered as the SDK answers it', () => {
  it('a success, with structuredContent and text, for numeric and string ids and both tool-name styles', async () => {
    const got = await both(call({ name: 'projects.get', arguments: { projectRef: o.project.project_ref } }));
    expect(got.result.structuredContent.project.name).toBe(o.project.name);
    expect(JSON.parse(got.result.content[0].text)).toEqual(got.result.structuredContent);
    expect((await both(call({ name: 'projects.get', arguments: { projectRef: o.project.project_ref } }, 'an-id'))).id).toBe('an-id');
    expect((await both(call({ name: 'projects_get', arguments: { projectRef: o.project.project_ref } }, 0), { query: '?tool_names=underscore' })).result.structuredContent).toBeDefined();
    expect((await both(call({ name: 'projects.list', arguments: { orgHandle: o.orgHandle } }))).result.structuredContent.projects).toHaveLength(1);
    expect((await both(call({ name: 'auth.session' }))).result.structuredContent.user).toBeDefined();
    // A versioned read, answered from its kept JSON text, and the same again from the kept answer.
    const listed = await both(call({ name: 'evidence.list', arguments: { projectRef: o.project.project_ref, limit: 5 } }));
    expect(listed.result.structuredContent).toEqual({ signals: [], total: 0, next_cursor: null });
    expect(JSON.parse(listed.result.content[0].text)).toEqual(listed.result.structuredContent);
  });

  it('extra params, _meta and a progress token', async () => {
    const got = await both(call({ name: 'projects.get', arguments: { projectRef: o.project.project_ref }, other: 1, _meta: { progressToken: 'p', note: 'x' } }));
    expect(got.result.structuredContent).toBeDefined();
  });

  it("a tool's own failures are isError results", async () => {
    const foreign = await both(call({ name: 'projects.get', arguments: { projectRef: `${o.orgHandle}/nothing-here` } }));
    expect(foreign.result.isError).toBe(true);
    expect((await both(call({ name: 'projects.get', arguments: { projectRef: 'NOT A REF' } }))).result.isError).toBe(true);
    expect((await both(call({ name: 'projects.get', arguments: {} }))).result.isError).toBe(true);
    expect((await both(call({ name: 'projects.get' }))).result.isError).toBe(true);
  });

  it('protocol faults are JSON-RPC errors: unknown tool, the scope gate, an internal error', async () => {
    expect((await both(call({ name: 'projects.explode', arguments: {} }))).error.code).toBe(-32602);
    expect((await both(call({ name: 'studies.create', arguments: { projectRef: o.project.project_ref, title: 'x' } }), { token: readOnly })).error.code).toBe(-31003);
    const crashed = await both(call({ name: 'crash.fast', arguments: {} }));
    expect(crashed.error).toMatchObject({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(crashed)).not.toMatch(/crash\.ts/);
  });

  it('requests the SDK refuses or treats apart are left to it', async () => {
    expect((await both(call({ name: 'projects.get', arguments: ['x'] }))).error).toBeDefined();
    expect((await both(call({ arguments: {} }))).error).toBeDefined();
    expect((await both(call({ name: 'projects.get', arguments: { projectRef: o.project.project_ref }, task: { ttl: 1000 } }))).error).toBeDefined();
    const related = { name: 'projects.get', arguments: { projectRef: o.project.project_ref }, _meta: { [RELATED_TASK_META_KEY]: { taskId: 't' } } };
    expect((await both(call(related))).result).toBeDefined();
  });
});

describe('fastToolCall', () => {
  const run = async () => ({ output: {}, text: '{}' });
  it('takes a plain tools/call request and nothing else', () => {
    expect(fastToolCall(call({ name: 'x' }) as never, run)).not.toBeNull();
    expect(fastToolCall({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'x' } } as never, run)).toBeNull();
    expect(fastToolCall({ jsonrpc: '2.0', id: 1, method: 'tools/list' } as never, run)).toBeNull();
    expect(fastToolCall(call({ name: 'x', task: {} }) as never, run)).toBeNull();
    expect(fastToolCall(call({ name: 'x', _meta: { [RELATED_TASK_META_KEY]: { taskId: 't' } } }) as never, run)).toBeNull();
    expect(fastToolCall(call({ name: 1 }) as never, run)).toBeNull();
  });

  it('answers an output that is not a plain object as the SDK does: a -32602 error', async () => {
    const answer = JSON.parse((await fastToolCall(call({ name: 'x' }, 7) as never, async () => ({ output: [1], text: '[1]' })))!);
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: expect.stringMatching(/Invalid tools\/call result/) } });
  });
});
