import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { rpcError, toolError } from './helpers/mcp.ts';

let svc: TestService;
let user: { token: string; orgHandle: string };
let client: Client;

beforeAll(async () => {
  svc = await startTestService();
  user = await svc.login('agent-owner@example.com');
  client = await svc.mcp(user.token);
});
afterAll(() => svc?.stop());

describe('MCP tools from the registry', () => {
  it('lists every MCP-enabled capability with real input and output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const expected = svc.catalog.capabilities.filter((c) => c.mcp).map((c) => c.name);
    expect(names.sort()).toEqual(expected.sort());
    expect(names).toContain('projects.create');
    expect(names).not.toContain('system.health');
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(Object.keys(tool.outputSchema?.properties ?? {}).length).toBeGreaterThan(0);
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.annotations).toMatchObject({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
        openWorldHint: expect.any(Boolean),
      });
    }
    const create = tools.find((t) => t.name === 'projects.create')!;
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['name', 'orgHandle']));
    const get = tools.find((t) => t.name === 'projects.get')!;
    expect(get.inputSchema.required).toEqual(['projectRef']);
    expect(get.annotations?.readOnlyHint).toBe(true);
  });

  it('names, in its instructions and in every tool, only tools an agent can call, and no document it cannot see', async () => {
    const { tools } = await client.listTools();
    const names = new Set(tools.map((t) => t.name));
    const namespaces = new Set(svc.catalog.capabilities.map((c) => c.name.split('.')[0]));
    const dangling: string[] = [];
    const read = (where: string, text: string) => {
      for (const [name, namespace] of text.matchAll(/\b([a-z][a-z0-9_]*)\.[a-z][a-z0-9_]*\b/g)) {
        if (namespaces.has(namespace) && !names.has(name)) dangling.push(`${where} -> ${name}`);
      }
      if (/\bSPEC\b/.test(text)) dangling.push(`${where} -> SPEC`);
    };
    read('instructions', client.getInstructions() ?? '');
    for (const tool of tools) read(tool.name, `${tool.description} ${JSON.stringify(tool.inputSchema)} ${JSON.stringify(tool.outputSchema)}`);
    expect(dangling).toEqual([]);
    expect(client.getInstructions()).toMatch(/organizations\.list/);
  });

  it('answers the same through MCP as through REST', async () => {
    const created = await client.callTool({ name: 'projects.create', arguments: { orgHandle: user.orgHandle, name: 'Onboarding Study' } });
    expect(created.isError).toBeFalsy();
    const project = (created.structuredContent as { project: { project_ref: string; handle: string } }).project;
    expect(project.project_ref).toBe(`${user.orgHandle}/onboarding-study`);
    expect(JSON.parse((created.content as Array<{ text: string }>)[0].text)).toEqual(created.structuredContent);

    const viaMcp = await client.callTool({ name: 'projects.get', arguments: { projectRef: project.project_ref } });
    const viaRest = await svc.api('GET', `/api/orgs/${user.orgHandle}/projects/onboarding-study`, { token: user.token });
    expect(viaRest.status).toBe(200);
    expect(viaMcp.structuredContent).toEqual(viaRest.body);

    const overviewMcp = await client.callTool({ name: 'projects.overview', arguments: { projectRef: project.project_ref } });
    const overviewRest = await svc.api('GET', `/api/orgs/${user.orgHandle}/projects/onboarding-study/overview`, { token: user.token });
    expect(overviewMcp.structuredContent).toEqual(overviewRest.body);

    const sessionMcp = await client.callTool({ name: 'auth.session', arguments: {} });
    const sessionRest = await svc.api('GET', '/api/auth/session', { token: user.token });
    expect(sessionMcp.structuredContent).toEqual(sessionRest.body);
    expect(sessionRest.body.user.personal_org_handle).toBe(user.orgHandle);
  });

  it('returns tool failures as isError results with the SPEC envelope, and no internals', async () => {
    const stranger = await svc.login('stranger-agent@example.com');
    const other = await svc.mcp(stranger.token);
    await other.listTools();
    const notFound = toolError(await other.callTool({ name: 'projects.get', arguments: { projectRef: `${user.orgHandle}/onboarding-study` } }));
    expect(notFound).toMatchObject({ status: 404, code: 'not_found', error: expect.stringMatching(/not found/i), requestId: expect.any(String) });

    const invalid = toolError(await client.callTool({ name: 'projects.create', arguments: { orgHandle: user.orgHandle, name: 'x'.repeat(10_000) } }));
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_request', error: expect.stringMatching(/name/) });

    const badRef = toolError(await client.callTool({ name: 'projects.get', arguments: { projectRef: 'no slash here' } }));
    expect(badRef).toMatchObject({ status: 400, error: expect.stringMatching(/projectRef/) });

    const unknownField = toolError(await client.callTool({ name: 'projects.get', arguments: { projectRef: `${user.orgHandle}/onboarding-study`, extra: 1 } }));
    expect(unknownField).toMatchObject({ status: 400, error: expect.stringMatching(/extra/) });

    const unknownTool = await rpcError(client.callTool({ name: 'projects.explode', arguments: {} }));
    expect(unknownTool.code).toBe(-32602);
    expect(unknownTool.data).toMatchObject({ code: 'unknown_tool', status: 400 });

    for (const err of [notFound, invalid, badRef, unknownField, unknownTool]) {
      expect(JSON.stringify(err)).not.toMatch(/sequelize|SELECT|stack|\.ts:/i);
    }
  });

  it('serves underscore tool names to clients that cannot take dots', async () => {
    const underscored = await svc.mcp(user.token, '?tool_names=underscore');
    const { tools } = await underscored.listTools();
    for (const t of tools) expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(tools.map((t) => t.name)).toContain('projects_get');
    // Descriptions name other tools as this connection calls them.
    const dottedNames = tools.map((t) => t.name.replace(/_/, '.'));
    for (const t of tools) for (const n of dottedNames) expect(t.description ?? '', `${t.name} names ${n}`).not.toMatch(new RegExp(`\\b${n.replace('.', '\\.')}\\b`));
    expect(tools.find((t) => t.name === 'evidence_annotate')?.description).toContain('evidence_update changes the card itself');
    const res = await underscored.callTool({ name: 'projects_get', arguments: { projectRef: `${user.orgHandle}/onboarding-study` } });
    expect((res.structuredContent as { project: { handle: string } }).project.handle).toBe('onboarding-study');
    const dotted = await rpcError(underscored.callTool({ name: 'projects.get', arguments: { projectRef: `${user.orgHandle}/onboarding-study` } }));
    expect(dotted.code).toBe(-32602);
    expect(dotted.data.code).toBe('unknown_tool');
    // The name meant is said, and how names are written on this connection.
    expect(dotted.message).toContain('did you mean projects_get?');
    expect(dotted.data.action).toContain('underscores');
    const dots = await svc.mcp(user.token);
    for (const [sent, meant] of [['evidence_list', 'evidence.list'], ['listEvidence', 'evidence.list'], ['Projects.Get', 'projects.get']]) {
      const err = await rpcError(dots.callTool({ name: sent, arguments: {} }));
      expect(err.message, sent).toBe(`MCP error -32602: Unknown tool ${sent}: did you mean ${meant}?`);
    }
    expect((await rpcError(dots.callTool({ name: 'explode', arguments: {} }))).message).toBe('MCP error -32602: Unknown tool explode');
  });
});

describe('MCP resources and prompts', () => {
  it('lists and reads the project overview resource, for members only', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('service://projects/{orgHandle}/{projectHandle}/overview');
    const { resources } = await client.listResources();
    const uri = `service://projects/${user.orgHandle}/onboarding-study/overview`;
    expect(resources.map((r) => r.uri)).toContain(uri);
    const read = await client.readResource({ uri });
    const doc = JSON.parse((read.contents[0] as { text: string }).text);
    expect(doc.project.project_ref).toBe(`${user.orgHandle}/onboarding-study`);
    expect(doc.studies[0].goals.length).toBeGreaterThan(0);

    const stranger = await svc.mcp((await svc.login('nosy@example.com')).token);
    expect((await stranger.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
    expect((await rpcError(stranger.readResource({ uri }))).code).toBe(-32002);
    expect((await rpcError(client.readResource({ uri: 'service://nothing/here' }))).code).toBe(-32002);
  });

  it('lists and renders the plan-study prompt, validating its arguments', async () => {
    const { prompts } = await client.listPrompts();
    const plan = prompts.find((p) => p.name === 'plan-study')!;
    expect(plan.arguments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'projectRef', required: true }),
        expect.objectContaining({ name: 'question', required: true }),
        expect.objectContaining({ name: 'audience', required: false }),
      ]),
    );
    const got = await client.getPrompt({ name: 'plan-study', arguments: { projectRef: `${user.orgHandle}/onboarding-study`, question: 'Why do trials not convert?' } });
    const text = (got.messages[0].content as { text: string }).text;
    expect(text).toContain('Why do trials not convert?');
    expect(text).toContain(`service://projects/${user.orgHandle}/onboarding-study/overview`);
    expect((await rpcError(client.getPrompt({ name: 'plan-study', arguments: { question: 'x' } }))).code).toBe(-32602);
  });
});

describe('the /mcp endpoint', () => {
  it('requires a bearer token and never reads one from the query string', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const anon = await fetch(`${svc.url}/mcp`, { method: 'POST', headers, body });
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const inQuery = await fetch(`${svc.url}/mcp?access_token=${user.token}`, { method: 'POST', headers, body });
    expect(inQuery.status).toBe(401);
    const ok = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${user.token}` }, body });
    expect(ok.status).toBe(200);
  });

  it('answers GET and DELETE with 405: the server is stateless', async () => {
    expect((await fetch(`${svc.url}/mcp`, { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(405);
    expect((await fetch(`${svc.url}/mcp`, { method: 'DELETE' })).status).toBe(405);
  });
});
