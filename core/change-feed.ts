import pg from 'pg';
import type { Logger } from './logger.ts';

export const CHANGE_CHANNEL = 'verbatim_changes';
const RECONNECT_MS = 1_000;
/** A marker not heard back by then means the connection is stuck: it is dropped and caches answer from the database until it is back. */
const MARKER_TIMEOUT_MS = 5_000;

/**
 * This process's ear on `verbatim_changes` (migration 0021's triggers): one dedicated
 * connection LISTENs, and each notification (`topic:id`) reaches every subscriber. While the
 * connection is down the feed is not `live`, and caches built on it must not answer from
 * memory: a notification missed then is gone. Every (re)connect and every loss counts as a
 * reset, so entries cached before it are dropped.
 */
export interface ChangeFeed {
  live(): boolean;
  /** Goes up on every notification and reset: a load that began before a change must not be cached after it. */
  generation(): number;
  subscribe(onChange: (topic: string) => void, onReset: () => void): void;
  /**
   * Resolves once this process has heard every notification committed before the call
   * (Postgres delivers a listener's notifications in commit order, so hearing a marker sent
   * now means the earlier ones arrived). A write awaits it before it answers; a request with a
   * token awaits it before it trusts anything cached.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function openChangeFeed(url: string, log: Logger): Promise<ChangeFeed> {
  const listeners: Array<{ onChange: (topic: string) => void; onReset: () => void }> = [];
  const markers = new Map<string, () => void>();
  const markerPrefix = `settle:${process.pid}:${Math.random().toString(36).slice(2)}:`;
  let markerCount = 0;
  let client: pg.Client | null = null;
  let live = false;
  let generation = 0;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let drop: (why: string) => void = () => {};

  const reset = () => {
    generation++;
    // Nothing cached survives a reset, so whoever waits for a marker has nothing left to wait for.
    for (const done of markers.values()) done();
    for (const l of listeners) l.onReset();
  };

  const connect = async () => {
    // The pid tells operators (and the two-process test) whose listener a backend is.
    const c = new pg.Client({ connectionString: url, application_name: `verbatim change feed ${process.pid}` });
    c.on('notification', (msg) => {
      if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return;
      const marker = markers.get(msg.payload);
      if (marker) return marker();
      // Another process's marker changes nothing.
      if (msg.payload.startsWith('settle:')) return;
      generation++;
      for (const l of listeners) l.onChange(msg.payload);
    });
    const lost = (why: string) => {
      if (client !== c) return;
      client = null;
      live = false;
      reset();
      c.end().catch(() => {});
      if (closed) return;
      log.warn('change feed lost: caches answer from the database until it is back', { reason: why });
      timer = setTimeout(() => void retry(), RECONNECT_MS);
      timer.unref();
    };
    drop = lost;
    c.on('error', (err) => lost(err.message));
    c.on('end', () => lost('connection ended'));
    await c.connect();
    await c.query(`LISTEN ${CHANGE_CHANNEL}`);
    client = c;
    reset();
    live = true;
  };

  const retry = async () => {
    timer = null;
    if (closed) return;
    try {
      await connect();
      log.info('change feed back');
    } catch (err) {
      log.warn('change feed still down', { reason: (err as Error).message });
      timer = setTimeout(() => void retry(), RECONNECT_MS);
      timer.unref();
    }
  };

  let inFlight: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  /** One marker through the feed's own connection: heard back, every change committed before it was sent has been heard too. */
  const markerRound = async () => {
    const c = client;
    const lostC = drop;
    if (!live || !c) return;
    const marker = `${markerPrefix}${markerCount++}`;
    const heard = new Promise<void>((resolve) => markers.set(marker, resolve));
    let timeout: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => reject(new Error(`not heard back within ${MARKER_TIMEOUT_MS} ms`)), MARKER_TIMEOUT_MS);
    });
    try {
      await Promise.race([c.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, marker]).then(() => heard), late]);
    } catch (err) {
      // Unsure what was heard: start over as after a lost connection, so nothing cached answers meanwhile.
      lostC(`settle marker failed: ${(err as Error).message}`);
    } finally {
      clearTimeout(timeout);
      markers.delete(marker);
    }
  };
  const startRound = () => {
    const round = markerRound();
    inFlight = round;
    void round.catch(() => {}).then(() => {
      if (inFlight === round) inFlight = null;
    });
    return round;
  };

  await connect();
  return {
    live: () => live,
    generation: () => generation,
    subscribe(onChange, onReset) {
      listeners.push({ onChange, onReset });
    },
    settle() {
      if (!live || !client) return Promise.resolve();
      if (!inFlight) return startRound();
      // The marker in flight may have been sent before this caller's writes were committed: wait for the next one, which every caller arriving meanwhile shares.
      next ??= inFlight.catch(() => {}).then(() => {
        next = null;
        return startRound();
      });
      return next;
    },
    async close() {
      closed = true;
      live = false;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
