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
  svc = await startTestService();
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
    cases.push({ label: `path ${p.name} encoded surrogate`, path: fill(op.path, { [p.name]: '%ED%A0%80' }), status: [400], code: 'malformed_path' });
    // Upload routes read (and refuse) the body before the path is validated.
    const upload = Object.keys(op.operation.requestBody?.content ?? {}).some((t) => t !== 'application/json');
    cases.push({ label: `path ${p.name} NUL`, path: fill(op.path, { [p.name]: 'a%00b' }), status: upload ? [400, 415] : [400], error: upload ? undefined : `${p.name}: must not contain NUL` });
  }
  for (const p of params.filter((x) => x.in === 'query')) {
    cases.push({ label: `query ${p.name} NUL`, query: `${p.name}=a%00b`, status: [400], error: `${p.name}: must not contain NUL` });
    cases.push({ label: `query ${p.name} malformed escape`, query: `${p.name}=%E0%A4%A` });
  }
  const content = op.operation.requestBody?.content ?? {};
  const json = content['application/json']?.schema;
  if (json) {
    const props = Object.entries((json.properties ?? {}) as Record<string, { type?: unknown }>);
    cases.push({ label: 'malformed JSON', body: '{"a":', status: [400], code: 'malformed_json' });
    cases.push({ label: 'body is an array', body: '[]', status: [400] });
    cases.push({ label: 'NUL in a field name', body: JSON.stringify({ [NUL]: 1 }), status: [400], error: 'field names must not contain NUL' });
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
    // The walk is bounded, and it really covered the document.
    expect(ops.length).toBeGreaterThan(150);
    expect(sent).toBeGreaterThan(1500);
    expect(sent).toBeLessThan(5000);
  });
});
