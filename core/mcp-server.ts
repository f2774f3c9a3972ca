import type { Request, Response } from 'express';
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolRequest,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Catalog } from './catalog.ts';
import type { Capability } from './registry.ts';
import type { Ctx, Services, UserPrincipal } from './context.ts';
import { jsonSchema } from './json-schema.ts';
import { checkScope, invoke, invokeJson, parseOrThrow, type Call } from './invoke.ts';
import { AppError, NotFoundError, ValidationError, internalEnvelope, jsonRpcCodeFor, toEnvelope } from './errors.ts';
import { resolveProject, resolveOrg } from '../auth/access.ts';
import { matchResourceUri, resourceTemplate } from './mcp-registry.ts';
import { HANDLE_PATTERN } from './ids.ts';
import { InProcessTransport } from './mcp-transport.ts';
import { serveMcpPost } from './mcp-http.ts';
import { fastToolCall, toolResult, type ToolAnswer } from './mcp-fast-call.ts';

export const PROJECT_REF = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/, 'must be "org/project", as in a project\'s project_ref')
  .describe('The project, as "orgHandle/projectHandle" (the project_ref field of a project).');
const ORG_HANDLE = z.string().regex(HANDLE_PATTERN, 'must be an organization handle').describe('Organization handle.');

type ToolNames = 'dotted' | 'underscore';

interface Tool {
  cap: Capability;
  /** Input as agents send it: the capability input plus projectRef or orgHandle. */
  input: z.ZodObject;
  listing: Record<string, unknown>;
}

const INSTRUCTIONS =
  'Verbatim turns customer interviews into evidence. Start with organizations.list to find an orgHandle, ' +
  'then projects.list with it to find a project_ref, and pass that as projectRef to project tools. Read tools are safe to call freely; write tools change shared research data.';

function toolInput(cap: Capability): z.ZodObject {
  if (cap.access === 'project') return cap.input.extend({ projectRef: PROJECT_REF }).strict();
  if (cap.access === 'org') return cap.input.extend({ orgHandle: ORG_HANDLE }).strict();
  return cap.input;
}

/**
 * A protocol fault as a JSON-RPC error: unknown tool, SPEC's -31003 scope gate, resources and
 * prompts. `error.data` is the REST envelope plus `status`. Anything that is not an AppError is
 * -32603 with the internal envelope; its details only reach the log.
 */
function rpcError(err: unknown, requestId: string, services: Services, notFound?: number): Error {
  if (err instanceof AppError) {
    return Object.assign(new Error(err.message), { code: jsonRpcCodeFor(err, notFound), data: { status: err.status, ...toEnvelope(err, requestId) } });
  }
  services.log.error('unhandled MCP error', { requestId, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  return Object.assign(new Error('Internal error'), { code: -32603, data: internalEnvelope(requestId) });
}

/**
 * A tool's own failure (bad arguments, not found, 402, 409, 422, 429, 503 ...) as a result the
 * model reads and corrects itself from (MCP 2025-11-25, SEP-1303): the envelope plus `status`, as
 * JSON text. Not as structuredContent: the SDK client (1.32) checks structuredContent against the
 * tool's output schema even when isError is set, and would throw the envelope away.
 */
function toolError(err: AppError, requestId: string): CallToolResult {
  const envelope = { ...toEnvelope(err, requestId), status: err.status };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] };
}

type McpCall = Call & { principal: UserPrincipal };

/**
 * Who is calling travels with each message as the SDK's authInfo (the shared Server holds no
 * caller); handlers read the call from `extra`. The token itself is not passed on (it was verified
 * before the message got here), and `scopes` is informational: the principal's own scopes decide.
 */
function authInfoFor(call: McpCall): AuthInfo {
  return { token: '', clientId: call.principal.registrationId ?? call.principal.userId, scopes: call.principal.scopes ?? [], extra: { call } };
}

function callOf(extra: { authInfo?: AuthInfo }): McpCall {
  const call = extra.authInfo?.extra?.call as McpCall | undefined;
  if (!call) throw new Error('MCP message without a caller');
  return call;
}

/**
 * Stateless Streamable HTTP: one low-level Server per tool-name style, built at startup and
 * connected to an in-process transport; every POST hands its messages to it with the caller
 * attached, so any process can answer any request. The low-level Server (not McpServer) lets the
 * scope gate answer with SPEC's JSON-RPC -31003 while other tool failures are isError results.
 */
export function createMcpEndpoint(catalog: Catalog, services: Services, version: string) {
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const resources = catalog.resources.map((r) => ({ r, template: resourceTemplate(r) }));
  const tools = new Map<ToolNames, Map<string, Tool>>();
  // A description that names another tool names it as this connection calls it ("evidence.update" → "evidence_update").
  const toolNames = catalog.capabilities.filter((c) => c.mcp).map((c) => c.name);
  const namedAs = new RegExp(`\\b(${toolNames.map((n) => n.replace(/\./g, '\\.')).sort((a, b) => b.length - a.length).join('|')})\\b`, 'g');
  const underscored = (text: string) => text.replace(namedAs, (n) => n.replace(/\./g, '_'));
  for (const mode of ['dotted', 'underscore'] as const) {
    const byName = new Map<string, Tool>();
    for (const cap of catalog.capabilities) {
      if (!cap.mcp) continue;
      const name = mode === 'dotted' ? cap.name : cap.name.replace(/\./g, '_');
      const input = toolInput(cap);
      byName.set(name, {
        cap,
        input,
        listing: {
          name,
          title: cap.title,
          description: (mode === 'dotted' ? (t: string) => t : underscored)(cap.description + (cap.deprecated ? ` Deprecated since ${cap.deprecated.since}.` : '')),
          inputSchema: jsonSchema(input, 'input'),
          outputSchema: jsonSchema(cap.output, 'output'),
          annotations: { title: cap.title, ...cap.annotations },
        },
      });
    }
    tools.set(mode, byName);
  }

  /** The tool a mistyped name most likely meant: the same letters ("evidence_list", "Evidence.List"), else the most words shared ("listEvidence"). */
  function nearestTool(names: string[], name: string): string | null {
    const letters = (n: string) => n.toLowerCase().replace(/[^a-z0-9]/g, '');
    const same = names.find((n) => letters(n) === letters(name));
    if (same) return same;
    const words = new Set((name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().match(/[a-z]+/g) ?? []).map((w) => w.replace(/s$/, '')));
    let best: { name: string; shared: number } | null = null;
    for (const n of names) {
      const shared = (n.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => words.has(w.replace(/s$/, ''))).length;
      if (shared >= 2 && (!best || shared > best.shared)) best = { name: n, shared };
    }
    return best?.name ?? null;
  }

  const baseCtx = (call: Call): Ctx => ({
    requestId: call.requestId,
    surface: 'mcp',
    principal: call.principal,
    org: null,
    project: null,
    services,
    log: services.log.child({ requestId: call.requestId }),
  });

  /** A tools/call, on the SDK's path or the fast one (core/mcp-fast-call.ts). */
  async function callTool(byName: Map<string, Tool>, params: CallToolRequest['params'], call: McpCall): Promise<ToolAnswer> {
    const tool = byName.get(params.name);
    if (!tool) {
      const near = nearestTool([...byName.keys()], params.name);
      const style = [...byName.keys()].some((n) => n.includes('.')) ? 'dotted (evidence.list); clients that cannot take dots connect to /mcp?tool_names=underscore' : 'with underscores (evidence_list), as this connection asked';
      throw rpcError(new ValidationError(`Unknown tool ${params.name}${near ? `: did you mean ${near}?` : ''}`, { code: 'unknown_tool', action: `tools/list lists them; names are ${style}` }), call.requestId, services);
    }
    try {
      // The scope gate (as invoke applies it) comes first: a read-only credential learns nothing from a write tool's argument checks.
      if (tool.cap.access !== 'public' && tool.cap.access !== 'sdk') checkScope(tool.cap, call.principal);
      const args = parseOrThrow(tool.input, params.arguments ?? {}) as Record<string, unknown>;
      const { projectRef, orgHandle, ...input } = args as { projectRef?: string; orgHandle?: string };
      const [org, project] = projectRef ? projectRef.split('/') : [orgHandle, undefined];
      const context = { orgHandle: org, projectHandle: project, inputParsed: true };
      // A versioned read answers from the kept answers, as over REST.
      if (tool.cap.version) return { json: String((await invokeJson(tool.cap, input, context, call)).body) };
      const output = await invoke(tool.cap, input, context, call);
      return { output, text: JSON.stringify(output) };
    } catch (err) {
      if (err instanceof AppError && err.code !== 'agent_write_not_permitted') return { result: toolError(err, call.requestId) };
      throw rpcError(err, call.requestId, services);
    }
  }

  function buildServer(mode: ToolNames): Server {
    const server = new Server(
      { name: 'verbatim', title: 'Verbatim', version },
      {
        capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
        instructions: INSTRUCTIONS,
        jsonSchemaValidator,
      },
    );
    const byName = tools.get(mode)!;
    const guard = async <T>(call: McpCall, fn: () => Promise<T>, notFound?: number): Promise<T> => {
      try {
        return await fn();
      } catch (err) {
        throw rpcError(err, call.requestId, services, notFound);
      }
    };

    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...byName.values()].map((t) => t.listing) as never }));

    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => toolResult(await callTool(byName, request.params, callOf(extra))));

    server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
      const call = callOf(extra);
      return guard(call, async () => {
        const ctx = baseCtx(call);
        const lists = await Promise.all(catalog.resources.map(async (r) => (await r.list(ctx)).map((item) => ({ ...item, mimeType: r.mimeType }))));
        return { resources: lists.flat() };
      });
    });

    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: catalog.resources.map((r) => ({ uriTemplate: r.uriTemplate, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType })),
    }));

    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const call = callOf(extra);
      return guard(call, async () => {
        const uri = request.params.uri;
        for (const { r, template } of resources) {
          const params = matchResourceUri(template, uri);
          if (!params) continue;
          const ctx = baseCtx(call);
          if (r.access === 'project') Object.assign(ctx, await resolveProject(services, call.principal, params.orgHandle, params.projectHandle));
          else if (r.access === 'org') ctx.org = await resolveOrg(services, call.principal, params.orgHandle);
          const text = await r.read(ctx, params);
          return { contents: [{ uri, mimeType: r.mimeType, text }] };
        }
        throw new NotFoundError(`No resource at ${uri}`);
      });
    });

    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: catalog.prompts.map((p) => ({
        name: p.name,
        title: p.title,
        description: p.description,
        arguments: Object.entries(p.args.shape).map(([name, schema]) => ({
          name,
          description: p.argDescriptions[name],
          required: !(schema as z.ZodType).safeParse(undefined).success,
        })),
      })),
    }));

    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const call = callOf(extra);
      return guard(call, async () => {
        const p = catalog.prompts.find((x) => x.name === request.params.name);
        if (!p) throw new ValidationError(`Unknown prompt ${request.params.name}`, { code: 'unknown_prompt' });
        const args = parseOrThrow(p.args, request.params.arguments ?? {});
        const result = await p.render(baseCtx(call), args);
        return {
          ...(result.description ? { description: result.description } : {}),
          messages: result.messages.map((m) => ({ role: m.role, content: { type: 'text' as const, text: m.text } })),
        };
      }, -32602);
    });
    return server;
  }

  // Shared by every caller. The only state a Server keeps between messages is what the last
  // initialize said about its client (capabilities, clientInfo), which only matters for requests
  // the server sends to the client: this one never does (stateless HTTP has no channel for them),
  // so a client that skips initialize is served exactly like one that does.
  const endpoints = new Map<ToolNames, InProcessTransport>();
  for (const mode of ['dotted', 'underscore'] as const) {
    const server = buildServer(mode);
    server.onerror = (err) => services.log.debug('MCP protocol error', { error: err.message });
    const transport = new InProcessTransport();
    // The transport starts at once; connect has wired onmessage before its first await.
    void server.connect(transport);
    endpoints.set(mode, transport);
  }

  return async function handle(req: Request, res: Response, principal: UserPrincipal) {
    const mode: ToolNames = req.query.tool_names === 'underscore' ? 'underscore' : 'dotted';
    const call: McpCall = { services, principal, requestId: req.requestId, surface: 'mcp' };
    const byName = tools.get(mode)!;
    await serveMcpPost(req, res, endpoints.get(mode)!, { authInfo: authInfoFor(call), requestInfo: { headers: req.headers } }, (message) =>
      fastToolCall(message, (params) => callTool(byName, params, call)),
    );
  };
}
