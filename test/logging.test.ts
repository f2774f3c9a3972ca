import pg from 'pg';
import { z } from 'zod';
import { makeWorkerUtils, runOnce } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENCRYPTION_KEY, cloneDatabase, startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';
import { runCli } from './helpers/process.ts';
import { createLogger } from '../core/logger.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { workerLogger } from '../jobs/runner.ts';
import { UnavailableError } from '../core/errors.ts';
import { capability } from '../core/registry.ts';
import { readOnly } from '../tools/common.ts';

/** A logger whose JSON records are kept in memory. */
function captured(level: Parameters<typeof createLogger>[0]) {
  const lines: string[] = [];
  const log = createLogger(level, {}, { write: (s: string) => void lines.push(s) });
  return { log, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, any>) };
}

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc?.stop());

describe('access log', () => {
  it('writes one JSON line per request on stderr with request id, status and duration, and never the token or key', async () => {
    const o = await ownerWithProject(svc, 'logs@example.com', 'Logged');
    const { rows: [project] } = await svc.services.db.pool.query('SELECT public_key FROM projects WHERE handle = $1', [o.project.handle]);
    const projectKey = project!.public_key as string;
    expect(projectKey).toMatch(/^pk_/);

    // A second process on the same database shares its storage folder, as it must.
    const server = runCli(['start'], { DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.dataDir, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, PORT: '0', WORKER: 'off', LOG_LEVEL: 'info' });
    try {
      await server.waitFor(/Base URL\s+http/);
      const base = /Base URL\s+(\S+)/.exec(server.stdout())![1];

      const demo = await fetch(`${base}/sdk/demo?key=${projectKey}&path=/`, { headers: { authorization: 'Bearer secret-token', cookie: 'auth_token=cookie-secret-value' } });
      const demoId = demo.headers.get('x-request-id')!;
      const session = await fetch(`${base}/api/auth/session?session_token=another-secret-value`, { headers: { authorization: `Bearer ${o.token}` } });
      expect(session.status).toBe(400); // unknown query parameter: still logged with its status
      const sessionId = session.headers.get('x-request-id')!;
      const health = await fetch(`${base}/api/health`);
      const healthId = health.headers.get('x-request-id')!;
      await server.waitFor(new RegExp(sessionId));
      await server.waitFor(new RegExp(demoId));

      const records = server
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, any>);
      const demoLine = records.find((r) => r.requestId === demoId);
      expect(demoLine).toMatchObject({ level: 'info', method: 'GET', path: '/sdk/demo?key=[Redacted]&path=/', status: demo.status, duration_ms: expect.any(Number) });
      expect(demoLine!.time).toEqual(expect.any(String));
      expect(records.find((r) => r.requestId === sessionId)).toMatchObject({ level: 'info', path: '/api/auth/session?session_token=[Redacted]', status: 400 });
      // Health checks are debug-level: not in an info log.
      expect(records.some((r) => r.requestId === healthId)).toBe(false);

      const everything = server.stderr() + server.stdout();
      for (const secret of ['secret-token', projectKey, 'cookie-secret-value', 'another-secret-value', o.token]) expect(everything).not.toContain(secret);
      expect(server.stdout()).not.toContain('"level"');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited();
    }
  });

  it('logs health checks at debug, a crash at error beside its stack, and an unavailable dependency at warn', async () => {
    const failing = (name: string, error: () => Error) =>
      capability({
        name: `testing.${name}`,
        title: `${name} (test only)`,
        description: 'Fails on purpose; exists only to test log levels.',
        input: z.strictObject({}),
        output: z.object({}),
        annotations: readOnly,
        scope: 'read',
        access: 'public',
        mcp: false,
        rest: { method: 'GET', path: `/api/testing/${name}` },
        async handler() {
          throw error();
        },
      });
    const { log, records } = captured('debug');
    const own = await startTestService({
      log,
      extra: { capabilities: [failing('crash', () => new Error('boom')), failing('unavailable', () => new UnavailableError('The model is down'))] },
    });
    try {
      const line = async (urlPath: string) => {
        const res = await own.api('GET', urlPath);
        const id = res.headers.get('x-request-id');
        await expect.poll(() => records().some((r) => r.requestId === id && r.status)).toBe(true);
        return { res, lines: records().filter((r) => r.requestId === id) };
      };
      const health = await line('/api/health');
      expect(health.lines).toEqual([expect.objectContaining({ level: 'debug', path: '/api/health', status: 200 })]);
      const crash = await line('/api/testing/crash');
      expect(crash.res.status).toBe(500);
      expect(crash.lines).toEqual([
        expect.objectContaining({ level: 'error', msg: 'unhandled error', error: expect.stringContaining('boom') }),
        expect.objectContaining({ level: 'error', path: '/api/testing/crash', status: 500 }),
      ]);
      const down = await line('/api/testing/unavailable');
      expect(down.res.status).toBe(503);
      expect(down.lines).toEqual([expect.objectContaining({ level: 'warn', path: '/api/testing/unavailable', status: 503, error: 'The model is down' })]);
    } finally {
      await own.stop();
    }
  });
});

describe('redaction', () => {
  it('replaces secret fields at any depth and secrets inside strings, keeping the rest', () => {
    const { log, lines, records } = captured('info');
    log.child({ token: 'child-token-1' }).info('calling https://x.test/a?key=pk_inmessage&limit=2 with Bearer msg-bearer-1', {
      openai_api_key: 'sk-field-1',
      nested: { clientSecret: 'client-secret-1', password: 'pw-1', list: [{ session_token: 'st-1' }], headers: { authorization: 'Bearer hdr-1', cookie: 'a=cookie-1', 'x-project-key': 'pk_hdr' } },
      storage_key: 'media/abc.webm',
      url: '/api/x?token=query-token-1&limit=5',
    });
    log.debug('not at info', { a: 1 });
    expect(lines).toHaveLength(1);
    const text = lines.join('');
    for (const secret of ['child-token-1', 'pk_inmessage', 'msg-bearer-1', 'sk-field-1', 'client-secret-1', 'pw-1', 'st-1', 'hdr-1', 'cookie-1', 'pk_hdr', 'query-token-1']) expect(text).not.toContain(secret);
    const [r] = records();
    expect(r).toMatchObject({ level: 'info', storage_key: 'media/abc.webm', url: '/api/x?token=[Redacted]&limit=5', nested: { password: '[Redacted]', list: [{ session_token: '[Redacted]' }] } });
    expect(r.msg).toBe('calling https://x.test/a?key=[Redacted]&limit=2 with Bearer [Redacted]');
  });

  it('redacts signed-link signatures and the guest links whose path is the secret', () => {
    const { log, lines, records } = captured('info');
    for (const p of ['/storage/media/a.webm?expires=99&sig=sig-secret-1', '/r/launch-secret-1', '/r/view/view-secret-1', '/api/recordings/launch-secret-2/start', '/s3/x?X-Amz-Signature=amz-secret-1&X-Amz-Credential=cred-secret-1']) log.info('request', { path: p });
    const text = lines.join('');
    for (const secret of ['sig-secret-1', 'launch-secret-1', 'view-secret-1', 'launch-secret-2', 'amz-secret-1', 'cred-secret-1']) expect(text).not.toContain(secret);
    expect(records().map((r) => r.path)).toEqual(['/storage/media/a.webm?expires=99&sig=[Redacted]', '/r/[Redacted]', '/r/view/[Redacted]', '/api/recordings/[Redacted]/start', '/s3/x?X-Amz-Signature=[Redacted]&X-Amz-Credential=[Redacted]']);
  });
});

describe('worker failures', () => {
  it('logs a failure that will be retried as a warning and the last failure as an error', async () => {
    const pool = new pg.Pool({ connectionString: await cloneDatabase(), max: 4 });
    const { log, records } = captured('info');
    try {
      const utils = await makeWorkerUtils({ pgPool: pool, logger: workerLogger(log) });
      await utils.addJob('busy_provider', { n: 1 }, { maxAttempts: 8 });
      await utils.addJob('unavailable', { n: 2 }, { maxAttempts: 3 });
      await utils.addJob('busy_provider', { n: 3 }, { maxAttempts: 1 });
      await utils.release();
      await runOnce({
        pgPool: pool,
        logger: workerLogger(log),
        taskList: {
          // What jobs/tasks/delivery_send throws while a provider answers 429.
          busy_provider: async () => {
            throw new Error('provider busy: The code host answered HTTP 429');
          },
          unavailable: async () => {
            throw new UnavailableError('The transcription service is busy');
          },
        },
      });
      const failures = records().filter((r) => r.job_id);
      expect(failures).toHaveLength(3);
      expect(failures.filter((r) => r.level === 'warn')).toEqual([
        expect.objectContaining({ task: 'busy_provider', attempt: 1, max_attempts: 8, error: 'provider busy: The code host answered HTTP 429' }),
        expect.objectContaining({ task: 'unavailable', attempt: 1, max_attempts: 3, error: 'The transcription service is busy' }),
      ]);
      expect(failures.filter((r) => r.level === 'error')).toEqual([expect.objectContaining({ task: 'busy_provider', attempt: 1, max_attempts: 1 })]);
    } finally {
      await pool.end();
    }
  });
});

describe('configuration', () => {
  const problem = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    return null;
  };

  it('names each bad variable and what it must be', () => {
    expect(problem({ PORT: 'abc' })).toContain('PORT: must be an integer 0-65535, got "abc"');
    expect(problem({ EMBEDDED_PG_PORT: '70000' })).toContain('EMBEDDED_PG_PORT: must be an integer 0-65535');
    expect(problem({ LOG_LEVEL: 'loud' })).toContain('LOG_LEVEL: must be one of debug, info, warn, error, silent, got "loud"');
    expect(problem({ BASE_URL: 'verbatim.example.com' })).toContain('BASE_URL: must be an absolute http(s) URL');
    expect(problem({ BASE_URL: 'ftp://verbatim.example.com' })).toContain('BASE_URL');
    expect(problem({ STORAGE: 's3' })).toContain('S3_BUCKET: is required when STORAGE=s3');
    expect(problem({ STORAGE: 'disk' })).toContain('STORAGE: must be one of local, s3');
    expect(problem({ BILLING: 'free' })).toContain('BILLING: must be one of credits, off');
    expect(problem({ WORKER: 'maybe' })).toContain('WORKER: must be one of on, off');
    expect(problem({ OUTBOUND_ALLOW_LOOPBACK: 'yes' })).toContain('OUTBOUND_ALLOW_LOOPBACK: must be one of true, false');
    expect(problem({ CONDUCTOR_GRACE_SECONDS: 'soon' })).toContain('CONDUCTOR_GRACE_SECONDS');
    const both = problem({ PORT: 'abc', LOG_LEVEL: 'loud' })!;
    expect(both).toContain('PORT:');
    expect(both).toContain('LOG_LEVEL:');
    // An SMTP URL may carry a password: it is never echoed.
    const smtp = problem({ SMTP_URL: 'http://user:hunter2@mail.example' })!;
    expect(smtp).toContain('SMTP_URL');
    expect(smtp).not.toContain('hunter2');
  });

  it('keeps defaults for unset or empty variables and reads valid ones', () => {
    const c = loadConfig({ PORT: '', LOG_LEVEL: 'DEBUG', WORKER: 'off', STORAGE: 's3', S3_BUCKET: 'media', S3_ENDPOINT: 'http://minio.local:9000', BILLING: 'off', OUTBOUND_ALLOW_LOOPBACK: 'true' });
    expect(c).toMatchObject({ port: 3000, logLevel: 'debug', worker: false, billing: 'off', outboundAllowLoopback: true });
    expect(c.storage).toMatchObject({ kind: 's3', s3: { bucket: 'media', endpoint: 'http://minio.local:9000', forcePathStyle: true } });
    expect(loadConfig({})).toMatchObject({ port: 3000, logLevel: 'info', worker: true, billing: 'credits', storage: { kind: 'local' }, outboundAllowLoopback: false });
  });
});
