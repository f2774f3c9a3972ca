import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedText, ownerWithProject } from './helpers/fixtures.ts';
import { isoRequired } from '../tools/common.ts';
import { AnswerCache } from '../core/answer-cache.ts';

/** Issue 17: keyset pages, totals kept per evidence version, and timestamps read as text. */
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let session: string;

const manual = (quote: string, signal_type = 'workaround') => o.call('POST', `/sessions/${session}/signals`, { signal_type, quote });

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  o = await ownerWithProject(svc, 'pages@example.com');
  session = await importedText(svc, o, 'pages', 'Interviewer: Tell me.\nParticipant: One. Two. Three. Four. Five. Six. Seven.');
  for (const q of ['One.', 'Two.', 'Three.', 'Four.', 'Five.']) expect((await manual(q)).status).toBe(201);
});
afterAll(() => svc?.stop());

async function walk(query: string, limit: number) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const page: any = (await o.call('GET', `/signals?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)).body;
    seen.push(...page.signals.map((s: any) => s.quote));
    cursor = page.next_cursor;
    if (!cursor) return seen;
  }
  throw new Error('cursor never ended');
}

describe('evidence list pages', () => {
  it('walks every card once by cursor, newest first, even while new cards arrive', async () => {
    expect(await walk('type=workaround', 2)).toEqual(['Five.', 'Four.', 'Three.', 'Two.', 'One.']);
    const first = (await o.call('GET', '/signals?type=workaround&limit=2')).body;
    expect(first).toMatchObject({ total: 5, next_cursor: expect.any(String) });
    // A card arriving after the first page does not shift the next one, as an offset would.
    expect((await manual('Six.')).status).toBe(201);
    const second = (await o.call('GET', `/signals?type=workaround&limit=2&cursor=${first.next_cursor}`)).body;
    expect(second.signals.map((s: any) => s.quote)).toEqual(['Three.', 'Two.']);
    expect(second.total).toBe(6);
    const byOffset = (await o.call('GET', '/signals?type=workaround&limit=2&offset=2')).body;
    expect(byOffset.signals.map((s: any) => s.quote)).toEqual(['Four.', 'Three.']);
    // The last page says so.
    expect((await o.call('GET', '/signals?type=workaround&limit=10')).body.next_cursor).toBeNull();
  });

  it('keeps totals right after every kind of change, and answers timestamps as before', async () => {
    const total = async () => (await o.call('GET', '/signals?type=workaround&limit=1')).body.total as number;
    const before = await total();
    const added = (await manual('Seven.')).body.signal.id;
    expect(await total()).toBe(before + 1);
    expect((await o.call('POST', `/signals/${added}/dismiss`, { reason: 'Duplicate' })).status).toBe(200);
    expect(await total()).toBe(before);
    expect((await o.call('GET', '/signals?dismissed=true&type=workaround')).body.total).toBe(1);
    expect((await o.call('POST', `/signals/${added}/undismiss`)).status).toBe(200);
    expect(await total()).toBe(before + 1);
    // Written behind the service's back, in SQL: the version moves at commit all the same.
    await svc.services.db.pool.query(`UPDATE signals SET signal_type = 'struggling_moment' WHERE id = $1`, [added]);
    expect(await total()).toBe(before);
    const task = await o.call('POST', '/tasks/from-signals', { signal_ids: [added] });
    expect(task.status).toBe(201);
    expect((await o.call('GET', '/signals?task_id=none&type=struggling_moment')).body.total).toBe(0);

    const card = (await o.call('GET', '/signals?limit=1')).body.signals[0];
    const { rows } = await svc.services.db.pool.query<{ created_at: Date }>('SELECT created_at FROM signals WHERE id = $1', [card.id]);
    expect(card.created_at).toBe(rows[0].created_at.toISOString());
    expect(isoRequired('2026-11-23 17:37:22.123456+00')).toBe('2026-11-23T17:37:22.123Z');
    expect(isoRequired('2026-11-23 17:37:22+00')).toBe('2026-11-23T17:37:22.000Z');
    expect(isoRequired('2026-11-23 17:37:22.4+00')).toBe(new Date('2026-11-23T17:37:22.4Z').toISOString());
    expect(isoRequired('2026-11-23 19:37:22.5+02')).toBe('2026-11-23T17:37:22.500Z');
  });

  it('refuses a cursor it did not give out, and a cursor with an offset', async () => {
    for (const cursor of ['nope', Buffer.from('["2026-01-01", "sig_x"]').toString('base64url'), Buffer.from(JSON.stringify(['2026-01-01 00:00:00+00', "x'; DROP"])).toString('base64url')]) {
      const res = await o.call('GET', `/signals?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
    const first = (await o.call('GET', '/signals?limit=1')).body.next_cursor;
    const both = await o.call('GET', `/signals?limit=1&offset=1&cursor=${first}`);
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('cursor_with_offset');
  });

  it('pages the same way over MCP', async () => {
    const client = new Client({ name: 'pages-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${o.token}` } } }));
    try {
      const projectRef = `${o.orgHandle}/${o.project.handle}`;
      const first = (await client.callTool({ name: 'evidence.list', arguments: { projectRef, type: 'workaround', limit: 3 } })).structuredContent as any;
      const rest = (await client.callTool({ name: 'evidence.list', arguments: { projectRef, type: 'workaround', limit: 10, cursor: first.next_cursor } })).structuredContent as any;
      const viaRest = await walk('type=workaround', 100);
      expect([...first.signals, ...rest.signals].map((s: any) => s.quote)).toEqual(viaRest);
    } finally {
      await client.close();
    }
  });
});

describe('answers kept per evidence version', () => {
  const raw = async (path: string, token = o.token) => {
    const res = await fetch(`${svc.url}${o.P}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text() };
  };

  it('sends the same page again only while the evidence version holds', async () => {
    const path = '/signals?type=workaround&limit=3';
    const first = await raw(path);
    expect(first.status).toBe(200);
    expect((await raw(path)).text).toBe(first.text);
    // A change the version does not see (its trigger off) is not read: the kept answer is sent.
    const id = JSON.parse(first.text).signals[0].id;
    const pool = svc.services.db.pool;
    await pool.query('ALTER TABLE signals DISABLE TRIGGER signals_version');
    try {
      await pool.query(`UPDATE signals SET quote = 'Changed unseen.' WHERE id = $1`, [id]);
    } finally {
      await pool.query('ALTER TABLE signals ENABLE TRIGGER signals_version');
    }
    expect((await raw(path)).text).toBe(first.text);
    // Any change the version counts, from any client, is in the very next answer.
    await pool.query(`UPDATE signals SET quote = 'Changed in SQL.' WHERE id = $1`, [id]);
    const after = JSON.parse((await raw(path)).text);
    expect(after.signals[0]).toMatchObject({ id, quote: 'Changed in SQL.' });
    expect(after.signals.slice(1)).toEqual(JSON.parse(first.text).signals.slice(1));
  });

  it('checks who asks on every call, kept answer or not', async () => {
    const path = '/signals?limit=2';
    expect((await raw(path)).status).toBe(200);
    const stranger = await svc.login('stranger-pages@example.com');
    const refused = await raw(path, stranger.token);
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain('signals');
    expect((await raw(path, 'not-a-token')).status).toBe(401);
  });

  it('tags a page with its version, answers 304 to a current copy, and a changed page in full', async () => {
    const path = `${svc.url}${o.P}/signals?type=workaround&limit=2`;
    const get = (token: string, etag?: string) => fetch(path, { headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) } });
    const first = await get(o.token);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+\.\d+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await get(o.token, etag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await get(o.token, `"other", W/${etag}`)).status).toBe(304);
    // Another filter is another answer.
    expect((await fetch(`${svc.url}${o.P}/signals?type=workaround&limit=3`, { headers: { authorization: `Bearer ${o.token}`, 'if-none-match': etag } })).status).toBe(200);
    // A tag never lets a stranger past the access check.
    const stranger = await svc.login('stranger-tags@example.com');
    expect((await get(stranger.token, etag)).status).toBe(404);
    expect((await manual('Tagged.')).status).toBe(201);
    const changed = await get(o.token, etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as any).signals[0].quote).toBe('Tagged.');
  });

  it('keeps at most its byte budget, oldest out first, and never an answer over a sixteenth of it', () => {
    const cache = new AnswerCache(1600);
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, 1, Buffer.alloc(100, i));
    expect(cache.size).toBe(16);
    expect(cache.get('k3', 1)).toBeNull();
    expect(cache.get('k19', 1)?.[0]).toBe(19);
    expect(cache.get('k19', 2)).toBeNull();
    cache.set('big', 1, Buffer.alloc(101));
    expect(cache.get('big', 1)).toBeNull();
  });
});
