import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.ts';
import { startService, type RunningService } from '../core/service.ts';
import { cloneDatabase } from './helpers/service.ts';

/**
 * Several processes started at once on a fresh database and one fresh DATA_DIR (the way a
 * deployment comes up): each must find the one key file and storage marker the first wrote,
 * whole, and none may be refused.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-race-'));
const running: RunningService[] = [];
afterAll(async () => {
  await Promise.allSettled(running.map((s) => s.stop()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('processes starting together', () => {
  it('share the key file and storage marker the first one wrote, and all start', async () => {
    const databaseUrl = await cloneDatabase();
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: '0', WORKER: 'off', LOG_LEVEL: 'silent' });
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => startService(config)));
    for (const r of results) if (r.status === 'fulfilled') running.push(r.value);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'started'))).toEqual(['started', 'started', 'started', 'started']);
    expect(fs.readFileSync(path.join(dataDir, 'encryption.key'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    expect(fs.readdirSync(dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    for (const svc of running) expect(((await (await fetch(`${svc.url}/api/health`)).json()) as { checks: { encryption_key: boolean } }).checks.encryption_key).toBe(true);
  });
});
