import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { validInvitation, validScript, visibility } from './helpers/fixtures.ts';

/**
 * Walks the OpenAPI document and sends every operation bad input, as the owner (and operator)
 * of a real org and project, with the project's SDK key on SDK routes, so requests reach the
 * handlers. Nothing may answer 5xx or show a stack; text Postgres cannot hold is a 400 naming
 * the field.
 */

const SHOP = 'https://shop.example';
const TRACKER_SECRET = 'tracker-webhook-secret';
const NUL = 'a\u0000b';
const SURROGATE = 'a\ud800b';
/** JSON text nested `levels` deep (built as text: JSON.stringify itself cannot). */
const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const STACK = /\n\s+at \S|\.(?:ts|js):\d+:\d+|node_modules/;

interface Op {
  method: string;
  path: string;
  operation: any;
}
interface Case {
  label: string;
  path?: string;
  query?: string;
  body?: string;
  form?: Record<string, string>;
  contentType?: string;
  /** Besides "no 5xx": the statuses allowed, and text the error must contain. */
  status?: number[];
  error?: string;
  code?: string;
}

let svc: TestService;
let token: string;
let orgHandle: string;
let projectHandle: string;
let sdkKey: string;

beforeAll(async () => {
  svc = await startTestService({ env: { TRACKER_WEBHOOK_SECRET: TRACKER_SECRET } });
  const owner = await svc.login('bad-input@example.com', { admin: true });
  token = owner.token;
  orgHandle = owner.orgHandle;
  const project = await svc.api('POST', `/api/orgs/${orgHandle}/projects`, { token, body: { name: 'Bad input' } });
  expect(project.status).toBe(201);
  projectHandle = project.body.project.handle;
  sdkKey = project.body.project.public_key;
  const study = await svc.api('POST', `/api/orgs/${orgHandle}/projects/${projectHandle}/studies`, {
    token,
    body: { title: 'Shop study', status: 'active', goals: validScript.goals, script: validScript, invitation: validInvitation, visibility: visibility([['include', 'subtree', '/']]), allowed_origins: [SHOP] },
  });
  expect(study.status).toBe(201);
});
afterAll(() => svc?.stop());

function fill(path: string, override: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => override[name] ?? (name === 'orgHandle' ? orgHandle : name === 'projectHandle' ? projectHandle : 'zz1'));
}

function casesFor(op: Op): Case[] {
  const params = (op.operation.parameters ?? []) as Array<{ name: string; in: string; schema?: { type?: unknown } }>;
  const cases: Case[] = [];
  for (const p of params.filter((x) => x.in === 'path')) {
    cases.push({ label: `path ${p.name} malformed escape`, path: fill(op.path, { [p.name]: '%E0%A4%A' }), status: [400], code: 'malformed_path' });
    cases.push({ label: `path ${p.name} quotes and 300 characters`, path: fill(op.path, { [p.name]: encodeURIComponent(`'"\\${'é'.repeat(300)}`) }) });
    cases.push({ label: `path ${p.name} encoded surrogate`, path: fill(op.path, { [p.name]: '%ED%A0%80' }), status: [400], code: 'malformed_path' });
    // Upload routes read (and refuse) the body before the path is validated.
    const upload = Object.keys(op.operation.requestBody?.content ?? {}).some((t) => t !== 'application/json');
    cases.push({ label: `path ${p.name} NUL`, path: fill(op.path, { [p.name]: 'a%00b' }), status: upload ? [400, 415] : [400], error: upload ? undefined : `${p.name}: must not contain NUL` });
  }
  for (const p of params.filter((x) => x.in === 'query')) {
    cases.push({ label: `query ${p.name} NUL`, query: `${p.name}=a%00b`, status: [400], error: `${p.name}: must not contain NUL` });
    cases.push({ label: `query ${p.name} malformed escape`, query: `${p.name}=%E0%A4%A` });
    cases.push({ label: `query ${p.name} out of range`, query: `${p.name}=99999999999999999999999` });
  }
  const content = op.operation.requestBody?.content ?? {};
  const json = content['application/json']?.schema;
  if (json) {
    const props = Object.entries((json.properties ?? {}) as Record<string, { type?: unknown }>);
    cases.push({ label: 'malformed JSON', body: '{"a":', status: [400], code: 'malformed_json' });
    cases.push({ label: 'body is an array', body: '[]', status: [400] });
    cases.push({ label: 'NUL in a field name', body: JSON.stringify({ [NUL]: 1 }), status: [400], error: 'Field names must not contain NUL' });
    const first = props[0]?.[0] ?? 'anything';
    cases.push({ label: 'JSON 10,000 deep', body: `{${JSON.stringify(first)}:${deep(10_000)}}`, status: [400], code: 'too_deep' });
    cases.push({ label: 'NUL nested in a field', body: JSON.stringify({ [first]: [{ nested: NUL }] }), status: [400], error: `${first}.0.nested: must not contain NUL` });
    for (const [name, schema] of props) {
      const numeric = JSON.stringify(schema).includes('"integer"') || JSON.stringify(schema).includes('"number"');
      cases.push({ label: `body ${name} NUL`, body: JSON.stringify({ [name]: NUL }), status: [400], error: `${name}: must not contain NUL` });
      cases.push({ label: `body ${name} lone surrogate`, body: JSON.stringify({ [name]: SURROGATE }), status: [400], error: `${name}: must not contain NUL bytes or unpaired surrogates` });
      cases.push({ label: `body ${name} wrong type`, body: JSON.stringify({ [name]: numeric ? 'not-a-number' : 12345 }) });
    }
  }
  const multipart = content['multipart/form-data']?.schema;
  if (multipart) {
    for (const [name, schema] of Object.entries((multipart.properties ?? {}) as Record<string, { format?: string }>)) {
      if (schema.format === 'binary') continue;
      cases.push({ label: `form ${name} NUL`, form: { [name]: NUL }, status: [400], error: `${name}: must not contain NUL` });
    }
    cases.push({ label: 'malformed multipart', body: '--nope\r\nContent-Disposition: form-data; name="x"\r\n\r\n', contentType: 'multipart/form-data; boundary=other', status: [400] });
  }
  if (content['application/octet-stream']) {
    cases.push({ label: 'binary as JSON', body: '{}', contentType: 'application/json', status: [415] });
    cases.push({ label: 'empty binary', body: '', contentType: 'application/octet-stream' });
  }
  return cases;
}

async function send(op: Op, c: Case) {
  const sdk = (op.operation.security ?? []).some((s: Record<string, unknown>) => 'sdkKey' in s);
  const headers: Record<string, string> = sdk ? { 'x-project-key': sdkKey, origin: SHOP } : { authorization: `Bearer ${token}` };
  let body: string | FormData | undefined = c.body;
  if (c.form) {
    const form = new FormData();
    for (const [k, v] of Object.entries(c.form)) form.append(k, v);
    body = form;
  } else if (body !== undefined) headers['content-type'] = c.contentType ?? 'application/json';
  const url = `${svc.url}${c.path ?? fill(op.path)}${c.query ? `?${c.query}` : ''}`;
  const res = await fetch(url, { method: op.method.toUpperCase(), headers, body, redirect: 'manual' });
  return { status: res.status, text: await res.text() };
}

describe('bad input over the OpenAPI document', () => {
  it('answers every malformed request with 4xx, never 5xx or a stack', { timeout: 240_000 }, async () => {
    const doc = (await svc.api('GET', '/api/openapi')).body;
    const ops: Op[] = [];
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        // Aliases run the same handler on another path: once is enough.
        if (!String(operation.operationId).includes('.alias')) ops.push({ method, path, operation });
      }
    }
    const failures: string[] = [];
    let sent = 0;
    for (const op of ops) {
      const limited = '429' in op.operation.responses;
      const cases = casesFor(op);
      const check = async (c: Case) => {
        if (limited) await svc.services.db.pool.query('DELETE FROM rate_limit_hits');
        const { status, text } = await send(op, c);
        sent++;
        let body: any = null;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        const where = `${op.method.toUpperCase()} ${op.path} [${c.label}]`;
        if (status >= 500) failures.push(`${where}: ${status} ${text.slice(0, 200)}`);
        else if (STACK.test(text)) failures.push(`${where}: leaks a stack: ${text.slice(0, 200)}`);
        else if (c.status && !c.status.includes(status)) failures.push(`${where}: ${status}, expected ${c.status.join('/')}: ${text.slice(0, 200)}`);
        else if (status === 400 && c.error && !String(body?.error).includes(c.error)) failures.push(`${where}: error "${body?.error}" does not contain "${c.error}"`);
        else if (c.code && status === 400 && body?.code !== c.code) failures.push(`${where}: code ${body?.code}, expected ${c.code}`);
      };
      if (limited) for (const c of cases) await check(c);
      else for (let i = 0; i < cases.length; i += 8) await Promise.all(cases.slice(i, i + 8).map(check));
    }
    expect(failures).toEqual([]);
    console.info(`bad-input walk: ${sent} requests over ${ops.length} operations`);
    // The walk is bounded, and it really covered the document.
    expect(ops.length).toBeGreaterThan(150);
    expect(sent).toBeGreaterThan(1500);
    expect(sent).toBeLessThan(5000);
  });
});

describe('races on one handle', () => {
  const race = async (n: number, send: () => Promise<{ status: number; body: any }>) => {
    const answers = await Promise.all(Array.from({ length: n }, send));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array(n - 1).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.requestId).toBeTruthy();
    return answers.filter((a) => a.status === 409).map((a) => a.body);
  };

  it('creates an organization once; every other concurrent create is 409 handle_taken', async () => {
    const conflicts = await race(8, () => svc.api('POST', '/api/orgs', { token, body: { handle: 'race-org', name: 'Race' } }));
    for (const c of conflicts) expect(c).toMatchObject({ code: 'handle_taken', error: expect.stringMatching(/handle.* is taken/) });
  });

  it('creates a screener once; every other concurrent create is 409 handle_taken', async () => {
    const conflicts = await race(12, () => svc.api('POST', `/api/orgs/${orgHandle}/projects/${projectHandle}/screeners`, { token, body: { title: 'Race', handle: 'race-screener' } }));
    for (const c of conflicts) expect(c.code).toBe('handle_taken');
  });

  it('adds a member once; every other concurrent add is 409', async () => {
    await race(6, () => svc.api('POST', `/api/orgs/${orgHandle}/members`, { token, body: { email: 'race-member@example.com' } }));
  });
});

describe('the same refusals on MCP and the edge routes', () => {
  it('refuses NUL and lone surrogates in MCP tools/call as a tool error naming the field', async () => {
    const client = await svc.mcp(token);
    const envelope = (result: unknown) => {
      const r = result as { isError?: boolean; content: Array<{ text: string }> };
      expect(r.isError).toBe(true);
      return JSON.parse(r.content[0].text) as { error: string; status: number };
    };
    const nul = envelope(await client.callTool({ name: 'projects.get', arguments: { projectRef: `${orgHandle}/${NUL}` } }));
    expect(nul).toMatchObject({ status: 400, error: expect.stringContaining('projectRef: must not contain NUL') });
    const surrogate = envelope(await client.callTool({ name: 'organizations.create', arguments: { handle: 'mcp-surrogate', name: SURROGATE } }));
    expect(surrogate).toMatchObject({ status: 400, error: expect.stringContaining('name: must not contain NUL bytes or unpaired surrogates') });
    expect((await svc.api('GET', '/api/orgs/mcp-surrogate', { token })).status).toBe(404);
  });

  it('answers an unreadable /mcp body with a JSON-RPC error: -32700 for malformed JSON, -32600 too_deep for deep nesting', async () => {
    const post = (raw: string) => svc.api('POST', '/mcp', { token, raw, headers: { accept: 'application/json, text/event-stream' } });
    const malformed = await post('{"jsonrpc":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const tooDeep = await post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"projects.list","arguments":{"x":${deep(10_000)}}}}`);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, data: { code: 'too_deep' } } });
    // 64 levels is still fine: the cap refuses only what is deeper.
    const ok = await post(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":${deep(60)}}}}`);
    expect(ok.status).toBe(200);
  });

  it('refuses NUL and deep JSON on agent registration, and a NUL that only Postgres would see is 400, not 500', async () => {
    const nul = await svc.api('POST', '/agent/auth', { body: { type: 'anonymous', agent_context: NUL } });
    expect(nul.status).toBe(400);
    expect(nul.body.error).toContain('agent_context: must not contain NUL');
    const tooDeep = await svc.api('POST', '/agent/auth', { raw: `{"type":"anonymous","agent_context":${deep(1000)}}` });
    expect(tooDeep).toMatchObject({ status: 400, body: { code: 'too_deep' } });
    // The issuer inside an (unsigned) assertion is looked up before any signature check.
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const assertion = `${b64({ alg: 'RS256', typ: 'oauth-id-jag+jwt' })}.${b64({ iss: `https://${NUL}.example`, sub: 'x' })}.c2ln`;
    const issuer = await svc.api('POST', '/agent/auth', {
      body: { type: 'identity_assertion', assertion_type: 'urn:ietf:params:oauth:token-type:id-jag', assertion, requested_credential_type: 'access_token' },
    });
    expect(issuer.status).toBe(400);
    expect(issuer.body.requestId).toBeTruthy();
  });

  it('refuses NUL in query values of non-registry routes (SDK key, sign-in, tracker callback)', async () => {
    for (const path of ['/api/sdk/placement?pathname=/&key=a%00b', '/api/auth/google/login?return_to=%2Fa%00b', '/api/auth/tracker/callback?code=x&state=a%00b']) {
      const res = await svc.api('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatch(/^\w+: must not contain NUL/);
    }
    const key = await svc.api('GET', '/api/sdk/placement?pathname=/&a%00b=1');
    expect(key).toMatchObject({ status: 400, body: { error: 'Field names must not contain NUL bytes or unpaired surrogates' } });
    const logout = await svc.api('POST', '/api/auth/logout', { headers: { cookie: 'auth_token=a%00b' } });
    expect(logout.status).toBeLessThan(500);
  });
});

describe('routes outside the registry', () => {
  it('answer malformed escapes, encoded surrogates and NUL in path and query with 4xx', async () => {
    const paths = ['/api/oauth/interaction/X', '/api/oauth/authorize/request?request=X', '/api/public/leaderboard/icons/X/X', '/r/X', '/r/view/X', '/api/auth/codehost/callback?code=X&state=X'];
    const puts = ['/api/storage/uploads/X/1'];
    for (const bad of ['%E0%A4%A', '%ED%A0%80', 'a%00b']) {
      for (const [method, template] of [...paths.map((p) => ['GET', p]), ...puts.map((p) => ['PUT', p])]) {
        const res = await fetch(svc.url + template.replaceAll('X', bad), { method, headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
        const text = await res.text();
        expect(res.status, `${method} ${template} with ${bad}: ${text.slice(0, 200)}`).toBeLessThan(500);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(text).not.toMatch(STACK);
      }
    }
    const decision = await svc.api('POST', '/api/oauth/authorize/decision', { token, raw: `{"uid":${deep(500)}}` });
    expect(decision).toMatchObject({ status: 400, body: { code: 'too_deep' } });
  });

  it('refuses NUL in OAuth registration and token requests before the provider stores or looks anything up', async () => {
    const register = await svc.api('POST', '/api/oauth/register', { body: { client_name: `bad${NUL}`, redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' } });
    expect(register).toMatchObject({ status: 400, body: { error: expect.stringContaining('client_name: must not contain NUL') } });
    const deepRegister = await svc.api('POST', '/api/oauth/register', { raw: `{"client_name":${deep(500)}}` });
    expect(deepRegister).toMatchObject({ status: 400, body: { code: 'too_deep' } });
    const form = (fields: Record<string, string>) => fetch(`${svc.url}/api/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    for (const fields of [{ grant_type: 'unknown_grant', client_id: `a${NUL}b` }, { grant_type: 'refresh_token', client_id: 'x', refresh_token: `r${NUL}` }] as Array<Record<string, string>>) {
      const res = await form(fields);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/must not contain NUL bytes or unpaired surrogates/);
    }
    const basic = await fetch(`${svc.url}/api/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('a%00b:secret').toString('base64')}` }, body: 'grant_type=client_credentials' });
    expect(basic.status).toBe(400);
    const escape = await fetch(`${svc.url}/api/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('a%E0%A4%A:secret').toString('base64')}` }, body: 'grant_type=client_credentials' });
    expect(escape.status).toBe(400);
    expect(await escape.json()).toMatchObject({ code: 'malformed_escape' });
  });
});

describe('signed webhook deliveries', () => {
  it('refuses a tracker delivery carrying NUL as a 400 naming the field, before any lookup', async () => {
    const body = JSON.stringify({ type: 'Issue', action: 'update', organizationId: NUL, data: { id: 'x' }, webhookTimestamp: Date.now() });
    const res = await fetch(`${svc.url}/api/webhooks/tracker`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'linear-delivery': 'nul-1', 'linear-signature': createHmac('sha256', TRACKER_SECRET).update(body).digest('hex') },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('organizationId: must not contain NUL');
  });

  it('takes a delivery whose odd text is only in fields it never reads', async () => {
    const body = JSON.stringify({ type: 'Issue', action: 'update', organizationId: 'org-x', data: { id: 'x', description: `pasted ${NUL} and ${SURROGATE}`, state: { name: 'Done', type: 'completed' } }, webhookTimestamp: Date.now() });
    const res = await fetch(`${svc.url}/api/webhooks/tracker`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'linear-delivery': 'odd-text-1', 'linear-signature': createHmac('sha256', TRACKER_SECRET).update(body).digest('hex') },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, event: 'Issue.update' });
  });
});

describe('OpenAPI request bodies', () => {
  it('describes multipart and binary uploads as they are sent', async () => {
    const doc = (await svc.api('GET', '/api/openapi')).body;
    const op = (name: string) => Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((m) => Object.values(m)).find((o) => o.operationId === name);
    const video = op('interviews.upload_media').requestBody.content;
    expect(Object.keys(video)).toEqual(['multipart/form-data']);
    expect(video['multipart/form-data'].schema.properties.media).toMatchObject({ type: 'string', format: 'binary' });
    const audio = op('sdk.upload_audio_chunk').requestBody.content;
    expect(audio['multipart/form-data'].schema.properties.audio).toMatchObject({ type: 'string', format: 'binary' });
    expect(audio['multipart/form-data'].schema.properties.session_id.type).toBe('string');
    const part = op('sdk.screen_upload_part');
    expect(part.requestBody.content).toEqual({ 'application/octet-stream': { schema: expect.objectContaining({ type: 'string', format: 'binary' }) } });
    expect(part.parameters.filter((p: any) => p.in === 'header').map((p: any) => p.name).sort()).toEqual(['x-part-number', 'x-session-id']);
  });
});
