import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, validScript } from './helpers/fixtures.ts';
import { rpcError, toolError } from './helpers/mcp.ts';
import { crashTool } from './helpers/crash.ts';

/**
 * MCP 2025-11-25 error handling: a tool's own failures are isError results carrying the SPEC
 * envelope, so a model can correct itself; JSON-RPC errors are for protocol faults only.
 */
const crash = crashTool('crash.now', 'connection to db-internal.example:5432 refused at crash.ts:12');

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let client: Client;

beforeAll(async () => {
  svc = await startTestService({ extra: { capabilities: [crash] } });
  o = await ownerWithProject(svc, 'mcp-errors@example.com', 'Errors');
  client = await svc.mcp(o.token);
  // Listing tools makes the SDK client check results against each tool's output schema.
  await client.listTools();
});
afterAll(() => svc?.stop());

const count = async (table: string) => Number((await svc.services.db.pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

describe('tool failures are isError results with the envelope', () => {
  it('an argument the schema refuses', async () => {
    const res = await client.callTool({ name: 'studies.create', arguments: { projectRef: o.project.project_ref, title: '' } });
    const env = toolError(res);
    expect(env).toMatchObject({ status: 400, code: 'invalid_request', error: expect.stringMatching(/title/), requestId: expect.any(String) });
    expect(res.structuredContent).toBeUndefined();
  });

  it('a project that does not exist', async () => {
    const env = toolError(await client.callTool({ name: 'studies.list', arguments: { projectRef: `${o.orgHandle}/nothing-here` } }));
    expect(env).toMatchObject({ status: 404, code: 'not_found', error: 'Project not found', requestId: expect.any(String) });
  });

  it('a conflict, with its details', async () => {
    const env = toolError(await client.callTool({ name: 'studies.create', arguments: { projectRef: o.project.project_ref, title: 'Again', handle: 'starter-study', script: validScript } }));
    expect(env).toMatchObject({ status: 409, error: expect.any(String), suggestion: 'starter-study-2', requestId: expect.any(String) });
  });

  it('credits run out (402), with retryable and action, writing nothing', async () => {
    const broke = await ownerWithProject(svc, 'mcp-broke@example.com');
    await svc.api('GET', '/api/billing', { token: broke.token });
    const orgId = (await svc.services.db.pool.query(`SELECT id FROM organizations WHERE handle = $1`, [broke.orgHandle])).rows[0].id;
    await svc.services.db.pool.query(`INSERT INTO billing_ledger (id, organization_id, kind, amount, description) VALUES ('bil_mcp_drain', $1, 'usage', -100, 'test usage')`, [orgId]);
    const mcp = await svc.mcp(broke.token);
    await mcp.listTools();
    const before = await count('interviews');
    const env = toolError(await mcp.callTool({ name: 'interviews.create', arguments: { projectRef: broke.project.project_ref } }));
    expect(env).toMatchObject({ status: 402, code: 'credits_exhausted', retryable: false, action: expect.stringContaining('/api/billing/checkout'), requestId: expect.any(String) });
    expect(await count('interviews')).toBe(before);
  });
});

describe('protocol faults stay JSON-RPC errors', () => {
  it('an unknown tool is -32602', async () => {
    const err = await rpcError(client.callTool({ name: 'studies.explode', arguments: {} }));
    expect(err.code).toBe(-32602);
    expect(err.data).toMatchObject({ code: 'unknown_tool', requestId: expect.any(String) });
  });

  it('a read-only agent credential calling a write tool is -31003, before its arguments are looked at', async () => {
    const reg = await svc.api('POST', '/agent/auth', { body: { type: 'anonymous', requested_credential_type: 'api_key' } });
    await svc.services.db.pool.query(`UPDATE agent_registrations SET status = 'claimed', user_id = (SELECT id FROM users WHERE email = 'mcp-errors@example.com') WHERE id = $1`, [reg.body.registration_id]);
    await svc.services.db.pool.query(`UPDATE agent_credentials SET scopes = '{agent:read}' WHERE registration_id = $1`, [reg.body.registration_id]);
    const agent = await svc.mcp(reg.body.credential);
    const read = await agent.callTool({ name: 'studies.list', arguments: { projectRef: o.project.project_ref } });
    expect(read.isError).toBeFalsy();
    for (const args of [{ projectRef: o.project.project_ref, title: 'Agent study' }, { projectRef: o.project.project_ref, title: '' }]) {
      const err = await rpcError(agent.callTool({ name: 'studies.create', arguments: args }));
      expect(err.code).toBe(-31003);
      expect(err.data).toMatchObject({ code: 'agent_write_not_permitted', status: 403 });
    }
    expect((await o.call('GET', '/studies')).body.studies.map((s: { title: string }) => s.title)).not.toContain('Agent study');
  });

  it('an unexpected failure is -32603 with the internal envelope and nothing else', async () => {
    const err = await rpcError(client.callTool({ name: 'crash.now', arguments: {} }));
    expect(err.code).toBe(-32603);
    expect(err.data).toEqual({ error: 'Internal error', code: 'internal_error', retryable: true, requestId: expect.any(String) });
    expect(JSON.stringify(err)).not.toMatch(/db-internal|crash\.ts|5432/);
  });

  it('malformed JSON on POST /mcp is a JSON-RPC -32700 with id null; an oversized body is a JSON-RPC -32600 with HTTP 413', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${o.token}` };
    const bad = await fetch(`${svc.url}/mcp`, { method: 'POST', headers, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700, message: expect.stringMatching(/^Parse error/), data: { code: 'malformed_json' } }, id: null });

    const big = await fetch(`${svc.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(8_500_000) } }) });
    expect(big.status).toBe(413);
    // The limit is said: a tool call can carry a transcript of up to 5 MiB, escaped.
    expect(await big.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('at most 8 MiB') }, id: null });
  });
});

describe('resources/read', () => {
  const overview = (project: string) => `service://projects/${o.orgHandle}/${project}/overview`;

  it('reads a resource whose parameters are percent-encoded', async () => {
    const read = await client.readResource({ uri: overview(encodeURIComponent(o.project.handle)) });
    expect(JSON.parse((read.contents[0] as { text: string }).text).project.project_ref).toBe(o.project.project_ref);
  });

  it('refuses a bad percent-escape, a NUL and a lone surrogate with -32602', async () => {
    for (const project of ['%E0%A4%A', '%ED%A0%80', 'a%00b', 'a\u0000b', 'a\uD800b']) {
      const err = await rpcError(client.readResource({ uri: overview(project) }));
      expect(err.code, project).toBe(-32602);
      expect(err.data, project).toMatchObject({ code: 'invalid_uri', status: 400 });
    }
  });

  it('answers -32002 for a resource that is not there or not the caller\'s', async () => {
    expect((await rpcError(client.readResource({ uri: overview('nothing-here') }))).code).toBe(-32002);
    expect((await rpcError(client.readResource({ uri: 'service://nothing/here' }))).code).toBe(-32002);
    const stranger = await svc.mcp((await svc.login('mcp-stranger@example.com')).token);
    expect((await rpcError(stranger.readResource({ uri: overview(o.project.handle) }))).code).toBe(-32002);
  });
});

describe('prompts/get', () => {
  it('refuses an unknown prompt and missing arguments with -32602', async () => {
    expect((await rpcError(client.getPrompt({ name: 'no-such-prompt' }))).code).toBe(-32602);
    expect((await rpcError(client.getPrompt({ name: 'plan-study', arguments: { question: 'x' } }))).code).toBe(-32602);
  });
});
