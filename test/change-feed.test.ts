import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from './helpers/service.ts';
import { createLogger } from '../core/logger.ts';
import { openChangeFeed, type ChangeFeed } from '../core/change-feed.ts';
import { FeedCache } from '../core/feed-cache.ts';
import { newId } from '../core/ids.ts';

/** The change feed and the caches on it, against a real Postgres (issue 17). */
let url: string;
let admin: pg.Client;
let feed: ChangeFeed;
const heard: string[] = [];

beforeAll(async () => {
  url = await cloneDatabase();
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  feed = await openChangeFeed(url, createLogger('silent'));
  feed.subscribe((topic) => heard.push(topic), () => {});
});

afterAll(async () => {
  await feed?.close();
  await admin?.end();
});

const counted = () => {
  let loads = 0;
  return {
    get loads() {
      return loads;
    },
    load: (topics: string[]) => async () => {
      loads++;
      return { value: loads, topics };
    },
  };
};

describe('change feed', () => {
  it('hears what triggers send for writes made by any client, in commit order', async () => {
    const user = newId('usr');
    const org = newId('org');
    await admin.query(`INSERT INTO users (id, email) VALUES ($1, $2)`, [user, `${user}@example.com`]);
    await admin.query(`INSERT INTO organizations (id, handle, name) VALUES ($1, $2, 'Feed')`, [org, org.replace('_', '-')]);
    await admin.query(`INSERT INTO memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, 'member')`, [newId('mem'), org, user]);
    await admin.query(`UPDATE memberships SET role = 'admin' WHERE user_id = $1`, [user]);
    await admin.query(`UPDATE organizations SET name = 'Renamed' WHERE id = $1`, [org]);
    await feed.settle();
    expect(heard).toEqual(expect.arrayContaining([`member:${user}`, `members:${org}`, `org:${org}`]));
    expect(heard.indexOf(`org:${org}`)).toBeGreaterThan(heard.lastIndexOf(`member:${user}`));
  });

  it('drops an entry when its topic is notified, and keeps nothing a concurrent change raced', async () => {
    const cache = new FeedCache<number>(feed);
    const c = counted();
    expect(await cache.get('k', c.load(['session:a']))).toBe(1);
    expect(await cache.get('k', c.load(['session:a']))).toBe(1);
    await admin.query(`SELECT pg_notify('verbatim_changes', 'session:other')`);
    await feed.settle();
    expect(await cache.get('k', c.load(['session:a']))).toBe(1);
    await admin.query(`SELECT pg_notify('verbatim_changes', 'session:a')`);
    await feed.settle();
    expect(await cache.get('k', c.load(['session:a']))).toBe(2);

    // A change notified while a load is under way: the loaded value is answered but not kept.
    let release!: () => void;
    const slow = cache.get('slow', async () => {
      await new Promise<void>((r) => (release = r));
      return { value: 7, topics: ['project:p'] };
    });
    await admin.query(`SELECT pg_notify('verbatim_changes', 'project:p')`);
    await feed.settle();
    release();
    expect(await slow).toBe(7);
    const again = counted();
    expect(await cache.get('slow', again.load(['project:p']))).toBe(1);
    expect(again.loads).toBe(1);
  });

  it('settles each caller only after its own write was heard, and callers that arrive together with one marker a round', async () => {
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    let markers = 0;
    const fences = new Set<string>();
    watcher.on('notification', (m) => void (m.payload?.startsWith('settle:') ? markers++ : fences.add(m.payload ?? '')));
    /** Resolves once the watcher has heard everything committed before now. */
    const caughtUp = async (fence: string) => {
      await admin.query(`SELECT pg_notify('verbatim_changes', $1)`, [fence]);
      while (!fences.has(fence)) await new Promise((r) => setTimeout(r, 5));
    };
    await watcher.query('LISTEN verbatim_changes');
    const writers = new pg.Pool({ connectionString: url, max: 3 });
    try {
      const calls = Array.from({ length: 60 }, (_, i) => i);
      const missed = await Promise.all(calls.map(async (i) => {
        await writers.query(`SELECT pg_notify('verbatim_changes', $1)`, [`together:${i}`]);
        await feed.settle();
        return heard.includes(`together:${i}`) ? null : i;
      }));
      expect(missed.filter((i) => i !== null)).toEqual([]);

      // Sixty callers in one tick: the first sends a marker, the rest share the next one.
      await caughtUp('fence:before');
      const before = markers;
      await Promise.all(calls.map(() => feed.settle()));
      await caughtUp('fence:after');
      expect(markers - before).toBe(2);
    } finally {
      await Promise.all([watcher.end(), writers.end()]);
    }
  });

  it('answers from the database while its connection is lost, and caches again once it is back', async () => {
    const cache = new FeedCache<number>(feed);
    const c = counted();
    await cache.get('k', c.load(['user:u']));
    const { rows } = await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`, [`verbatim change feed ${process.pid}`]);
    expect(rows).toHaveLength(1);
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await expect.poll(() => feed.live()).toBe(false);
    expect(cache.size).toBe(0);
    await cache.get('k', c.load(['user:u']));
    await cache.get('k', c.load(['user:u']));
    expect(c.loads).toBe(3);
    await expect.poll(() => feed.live(), { timeout: 10_000 }).toBe(true);
    await cache.get('k', c.load(['user:u']));
    await cache.get('k', c.load(['user:u']));
    expect(c.loads).toBe(4);
  });
});
