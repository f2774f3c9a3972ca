import type { Capability } from '../core/registry.ts';
import { contextParams, expandPath, pathParams, restPaths } from '../core/registry.ts';
import { jsonSchema, type JsonSchema } from '../core/json-schema.ts';

type Components = Record<string, JsonSchema>;

/**
 * Named schemas (zod `.meta({ id })`) arrive as `$defs` local to each operation; OpenAPI
 * wants them once under components, so move them there and point the refs at them.
 */
function hoist(schema: JsonSchema, components: Components, io: 'input' | 'output'): JsonSchema {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  delete schema.$defs;
  const names = new Map<string, string>();
  const relink = (s: JsonSchema): JsonSchema =>
    JSON.parse(JSON.stringify(s).replace(/"#\/\$defs\/([^"]+)"/g, (_m, id: string) => `"#/components/schemas/${names.get(id) ?? id}"`)) as JsonSchema;
  for (const [id, def] of Object.entries(defs)) {
    const clash = components[id] && JSON.stringify(components[id]) !== JSON.stringify(relink(def));
    names.set(id, clash ? `${id}${io === 'input' ? 'Input' : 'Output'}` : id);
  }
  for (const [id, def] of Object.entries(defs)) components[names.get(id)!] = relink(def);
  return relink(schema);
}

const errorResponse = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorResponse' } } } };

const statusText: Record<string, string> = {
  '400': 'Validation failure',
  '401': 'Not authenticated',
  '403': 'Forbidden',
  '404': 'Not found',
  '413': 'Body or file too large',
  '415': 'Unsupported media type',
  '422': 'Domain error, not retryable',
  '429': 'Rate limited',
  '500': 'Internal error',
  '503': 'Domain error, retryable',
};

function errorResponses(cap: Capability, hasBody: boolean): Record<string, unknown> {
  const codes = ['404', '422', '500', '503'];
  if (cap.access !== 'public') codes.push('401', '403');
  if (hasBody || Object.keys((jsonSchema(cap.input, 'input').properties ?? {}) as object).length) codes.push('400');
  if (cap.rateLimit) codes.push('429');
  if (cap.rest?.binary || cap.rest?.multipart) codes.push('413', '415');
  return Object.fromEntries(codes.sort().map((c) => [c, { ...errorResponse, description: statusText[c] }]));
}

/** OpenAPI 3.1 document generated from the same definitions the surfaces serve. */
export function openApiDocument(capabilities: Capability[], opts: { serverUrl: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Components = {};
  for (const cap of capabilities) {
    if (!cap.rest) continue;
    const binding = cap.rest;
    const openPath = expandPath(binding.path).replace(/:([A-Za-z_]\w*)/g, '{$1}');

    const input = hoist(jsonSchema(cap.input, 'input'), components, 'input');
    const props = { ...((input.properties ?? {}) as Record<string, JsonSchema>) };
    const required = new Set((input.required as string[] | undefined) ?? []);
    const parameters: unknown[] = [];
    const ctx = new Set(contextParams(cap.access));
    for (const name of pathParams(binding.path)) {
      parameters.push({
        name,
        in: 'path',
        required: true,
        schema: ctx.has(name) ? { type: 'string' } : props[name] ?? { type: 'string' },
        ...(ctx.has(name) ? { description: name === 'orgHandle' ? 'Organization handle' : 'Project handle' } : {}),
      });
      delete props[name];
    }
    for (const [header, field] of Object.entries(binding.headers ?? {})) {
      const schema = props[field] ?? { type: 'string' };
      parameters.push({ name: header, in: 'header', required: required.has(field), schema, ...(schema.description ? { description: schema.description } : {}) });
      delete props[field];
    }
    if (cap.version) {
      parameters.push({ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'The ETag of a copy you hold: 304 with no body while it is current' });
    }
    const bodyless = binding.method === 'GET' || binding.method === 'DELETE';
    for (const name of Object.keys(props)) {
      if (!bodyless && !binding.query?.includes(name)) continue;
      const schema = props[name];
      parameters.push({ name, in: 'query', required: required.has(name), schema, ...(schema.description ? { description: schema.description } : {}) });
      delete props[name];
    }
    const operation: Record<string, unknown> = {
      operationId: cap.name,
      summary: cap.title,
      description: cap.description,
      tags: [cap.name.split('.')[0]],
      ...(parameters.length ? { parameters } : {}),
      responses: {
        [String(binding.status ?? 200)]: {
          description: cap.title,
          content: { 'application/json': { schema: hoist(jsonSchema(cap.output, 'output'), components, 'output') } },
          ...(cap.version ? { headers: { ETag: { description: 'Names this answer at the current data version', schema: { type: 'string' } } } } : {}),
        },
        ...(cap.version ? { '304': { description: 'Not modified: the copy named by If-None-Match is current' } } : {}),
        ...errorResponses(cap, !bodyless),
      },
      security: cap.access === 'public' ? [] : cap.access === 'sdk' ? [{ sdkKey: [] }, { sdkKeyQuery: [] }] : [{ bearerAuth: [] }, { cookieAuth: [] }],
      'x-mcp-tool': cap.mcp ? cap.name : null,
      'x-scope': cap.scope,
    };
    if (binding.binary) {
      const mb = Math.round(binding.binary.maxBytes / 1024 / 1024);
      operation.requestBody = { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary', description: `Raw bytes, at most ${mb} MB` } } } };
    } else if (!bodyless) {
      // Multipart file parts are files, not the stored objects the handler receives.
      for (const [name, file] of Object.entries(binding.multipart ?? {})) {
        const description = props[name]?.description ?? `${file.kind === 'text' ? 'A text file' : `A${file.accept === 'either' || !file.accept ? 'n audio or video' : file.accept === 'audio' ? 'n audio' : ' video'} file`}, at most ${Math.round(file.maxBytes / 1024 / 1024)} MiB`;
        props[name] = { type: 'string', format: 'binary', description };
      }
      const bodySchema: JsonSchema = { ...input, properties: props, required: [...required].filter((r) => r in props) };
      if (!(bodySchema.required as string[]).length) delete bodySchema.required;
      const mediaType = binding.multipart ? 'multipart/form-data' : 'application/json';
      operation.requestBody = { required: (bodySchema.required as string[] | undefined)?.length ? true : false, content: { [mediaType]: { schema: bodySchema } } };
    }
    if (cap.deprecated) {
      operation.deprecated = true;
      operation['x-sunset'] = cap.deprecated.sunset ?? null;
    }
    restPaths(binding).forEach((path, i) => {
      const key = expandPath(path).replace(/:([A-Za-z_]\w*)/g, '{$1}');
      (paths[key] ??= {})[binding.method.toLowerCase()] = i === 0 ? operation : { ...operation, operationId: `${cap.name}.alias${i}`, description: `${cap.description} Alias of ${openPath}.` };
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Verbatim API',
      version: opts.version,
      summary: 'User research for product teams and their agents: interviews in, evidence out.',
      description:
        'Every operation here is also an MCP tool at /mcp with the same name, input and output. ' +
        'Versioning: routes under /api/ are major version 1; versioning is implicit in the path (no version header); ' +
        'backward-compatible additions happen within v1; breaking changes get /api/v2. Deprecated operations answer with ' +
        '`Deprecation` and `Link rel="deprecation"` headers, and with `Sunset` at least 90 days before removal.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    'x-api-versioning': { major_version: 1, scheme: 'implicit-path', minimum_sunset_notice_days: 90 },
    servers: [{ url: opts.serverUrl }],
    paths,
    components: {
      schemas: {
        ...components,
        ApiErrorResponse: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'string' },
            code: { type: 'string' },
            retryable: { type: 'boolean' },
            action: { type: 'string' },
            requestId: { type: 'string' },
          },
        },
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: 'auth_token' },
        sdkKey: { type: 'apiKey', in: 'header', name: 'X-Project-Key', description: "The project's widget SDK key (public_key)" },
        sdkKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
      },
    },
  };
}
