import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedText, ownerWithProject } from './helpers/fixtures.ts';
import { isoRequired } from '../tools/common.ts';

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
