import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig } from '../../core/config.ts';
import { startService, type RunningService, type ServiceOptions } from '../../core/service.ts';
import { ensureUser } from '../../tools/account/users.ts';
import { inTransaction } from '../../core/tx.ts';

export const TEST_ENCRYPTION_KEY = 'a'.repeat(64);

/** A fresh database cloned from the migrated template (one per test file, or more when asked). */
export async function cloneDatabase(): Promise<string> {
  const admin = inject('pgAdminUrl');
  const template = inject('templateDb');
  const name = `vt_${template.split('_').pop()}_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface TestService extends RunningService {
  databaseUrl: string;
  dataDir: string;
  /** Creates (or finds) a user with a personal org and returns a bearer token for them. */
  login(email: string, opts?: { name?: string; admin?: boolean }): Promise<{ token: string; userId: string; orgHandle: string }>;
  /** fetch against the service with JSON in and out. */
  api(method: string, urlPath: string, opts?: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  mcp(token: string, query?: string): Promise<Client>;
}

export async function startTestService(opts: ServiceOptions & { env?: Record<string, string> } = {}): Promise<TestService> {
  const databaseUrl = await cloneDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    WORKER: 'off',
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    ...opts.env,
  });
  const service = await startService(config, opts);
  const clients: Client[] = [];
  return {
    ...service,
    databaseUrl,
    dataDir,
    async stop() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await service.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async login(email, o = {}) {
      const { db, tokens } = service.services;
      const user = await inTransaction(db.pool, (sql) => ensureUser({ email, name: o.name ?? null, isAdmin: o.admin }, sql));
      const { rows } = await db.pool.query<{ handle: string }>(`SELECT handle FROM organizations WHERE id = $1`, [user.personal_org_id]);
      const { token } = await tokens.issue(user.id, 'test');
      return { token, userId: user.id, orgHandle: rows[0].handle };
    },
    async api(method, urlPath, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      let body: string | undefined;
      if (o.raw !== undefined) body = o.raw;
      else if (o.body !== undefined) body = JSON.stringify(o.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      const res = await fetch(service.url + urlPath, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async mcp(token, query = '') {
      const client = new Client({ name: 'verbatim-tests', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/mcp${query}`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
  };
}
