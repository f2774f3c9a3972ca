import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SignJWT, importJWK, type JWK } from 'jose';
import { loadConfig } from '../core/config.ts';
import { startService, type RunningService } from '../core/service.ts';
import { TEST_ENCRYPTION_KEY, cloneDatabase } from './helpers/service.ts';
import { runCliToEnd } from './helpers/process.ts';
import { ensureUser } from '../tools/account/users.ts';
import { inTransaction } from '../core/tx.ts';

const running: RunningService[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
});

describe('OAuth signing keys', () => {
  it('persist across restarts, rotate by command, and keep older tokens valid', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-keys-'));
    const env = { NODE_ENV: 'test', DATABASE_URL: await cloneDatabase(), DATA_DIR: dataDir, PORT: '0', WORKER: 'off', ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'error', BASE_URL: 'http://verbatim.test' };
    const first = await startService(loadConfig(env));
    running.push(first);
    await first.services.oauth();
    const { rows } = await first.services.db.pool.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'oauth_signing_jwks'`);
    const original = JSON.parse(rows[0].value) as JWK[];
    expect(original).toHaveLength(1);
    const user = await inTransaction(first.services.db.pool, (sql) => ensureUser({ email: 'keys@example.com' }, sql));
    const oldToken = await new SignJWT({ scope: 'agent:read', client_id: 'c1' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: original[0].kid })
      .setIssuer('http://verbatim.test/api/oauth')
      .setAudience('http://verbatim.test/mcp')
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(await importJWK(original[0], 'ES256'));
    await first.stop();
    running.pop();

    const rotated = await runCliToEnd(['oauth-rotate-key'], env);
    expect(rotated.code, rotated.stderr).toBe(0);
    const kid = /New signing key (\S+);/.exec(rotated.stdout)![1];

    const second = await startService(loadConfig(env));
    running.push(second);
    const oauth = await second.services.oauth();
    expect(oauth.publicJwks.keys.map((k) => k.kid)).toEqual([kid, original[0].kid]);
    expect(oauth.publicJwks.keys.every((k) => !('d' in k))).toBe(true);
    const claims = await oauth.verify(oldToken, 'http://verbatim.test/mcp');
    expect(claims.sub).toBe(user.id);
    // Discovery is built in-process: the public BASE_URL (unreachable here) is never fetched.
    const meta = (await (await fetch(`${second.localUrl}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ issuer: 'http://verbatim.test/api/oauth', registration_endpoint: 'http://verbatim.test/api/oauth/register', token_endpoint: 'http://verbatim.test/api/oauth/token' });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
