import fs from 'node:fs';
import { createSecretKey } from 'node:crypto';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import { connect, locateDatabase, type Database } from './database.ts';
import { anyPending } from '../models/migrate.ts';
import { migrateApart } from '../models/migrate-apart.ts';
import { openSecretBox } from '../auth/encryption-canary.ts';
import { createUserTokens } from '../auth/user-tokens.ts';
import { serverSecret } from './server-secrets.ts';
import { checkStorageFolder, createStorage, localStorageRoot } from './storage/index.ts';
import { openBilling } from './billing.ts';
import { creditBilling } from '../tools/billing/gate.ts';
import { createMailer } from './mailer.ts';
import { createOAuth, type OAuth } from '../auth/oauth/provider.ts';
import { openChangeFeed, type ChangeFeed } from './change-feed.ts';
import { createAuthCache } from '../auth/auth-cache.ts';
import { loadCatalog, type Catalog } from './catalog.ts';
import { createApp } from './http.ts';
import type { Services } from './context.ts';
import { AnswerCache } from './answer-cache.ts';
import { migrateQueue, startWorker, type WorkerHandle } from '../jobs/runner.ts';
import { tools } from '../tools/interviews/media.ts';
import { attachConductor } from '../rest/conductor-ws.ts';

export interface RunningService {
  url: string;
  /** Where this process listens (differs from url when BASE_URL names a public address). */
  localUrl: string | null;
  services: Services;
  catalog: Catalog;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** Serve HTTP (default true); `npm run worker` runs the worker alone. */
  http?: boolean;
  /** Definitions added beside the catalog's own (tests use this). */
  extra?: Partial<Catalog>;
  log?: Logger;
  /** Attach to the embedded Postgres a running server already started (CLI commands). */
  attach?: boolean;
}

function localUrl(host: string, port: number): string {
  return `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
}

/** Opens the database (embedded or DATABASE_URL), migrates it, and builds the shared services. */
export async function openServices(
  config: Config,
  log: Logger,
  attach = false,
): Promise<{ services: Services; address: { url: string }; closeDb(): Promise<void> }> {
  const location = await locateDatabase(config, log, { attach });
  let db: Database | null = null;
  let changes: ChangeFeed | null = null;
  try {
    // Each running job holds at most one connection, beside the ones HTTP requests use.
    db = connect(location.url, log, { poolSize: config.worker ? 10 + config.workerConcurrency : 10 });
    // Pending migrations run in a child process, so the service never holds umzug (models/migrate-apart.ts).
    if (await anyPending(db.pool)) await migrateApart(location.url);
    await migrateQueue(db.pool, log);
    // Refuse to run with a key or a storage folder the other processes on this database do not share.
    const secrets = await openSecretBox(db.pool, { envKey: config.encryptionKey, previous: config.encryptionKeysPrevious, dataDir: config.dataDir, log });
    if (config.storage.kind === 'local') await checkStorageFolder(db.pool, localStorageRoot(config));
    const tokens = createUserTokens(await serverSecret(db.pool, 'user_token_key'), db.pool);
    // The listening port is known only once HTTP is up; handlers read the address late.
    const address = { url: config.baseUrl ?? localUrl(config.host, config.port) };
    const baseUrl = () => address.url;
    const storage = createStorage(config, await serverSecret(db.pool, 'storage_signing_key'), baseUrl);
    const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir });
    const agentTokenKey = createSecretKey(await serverSecret(db.pool, 'agent_token_key'));
    const runtimeTokenKey = createSecretKey(await serverSecret(db.pool, 'runtime_token_key'));
    let oauth: Promise<OAuth> | null = null;
    changes = await openChangeFeed(location.url, log);
    const auth = createAuthCache(changes);
    const services: Services = { config, log, db, secrets, tokens, storage, billing: config.billing === 'off' ? openBilling : creditBilling(db), mailer, agentTokenKey, runtimeTokenKey, baseUrl, oauth: () => (oauth ??= createOAuth(services)), changes, auth, answers: new AnswerCache() };
    const database = db;
    const feed = changes;
    return {
      services,
      address,
      async closeDb() {
        await feed.close();
        await database.close();
        await location.embedded?.stop();
      },
    };
  } catch (err) {
    await changes?.close();
    await db?.close();
    await location.embedded?.stop();
    throw err;
  }
}

export async function startService(config: Config, opts: ServiceOptions = {}): Promise<RunningService> {
  const log = opts.log ?? createLogger(config.logLevel);
  const { services, address, closeDb } = await openServices(config, log, opts.attach);
  let server: http.Server | null = null;
  let conductor: { close(): void } | null = null;
  let listening: string | null = null;
  let worker: WorkerHandle | null = null;
  const pidFile = config.databaseUrl ? null : path.join(config.dataDir, 'server.pid');
  try {
    const catalog = await loadCatalog(opts.extra);
    if (opts.http !== false) {
      const app = createApp(catalog, services);
      server = http.createServer(app);
      server.keepAliveTimeout = 65_000;
      conductor = attachConductor(server, services);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port, config.host, () => resolve());
      });
      listening = localUrl(config.host, (server.address() as AddressInfo).port);
      if (!config.baseUrl) address.url = listening;
    }
    if (config.worker) {
      worker = await startWorker(services, services.db.pool);
      if (tools(config).bundledFfmpeg) {
        log.warn('Media is decoded with the ffmpeg 4.1 shipped in npm (a 2018 build): install ffmpeg from your operating system or set FFMPEG_PATH to a maintained one');
      }
    }
    if (pidFile) fs.writeFileSync(pidFile, String(process.pid));
    let stopping: Promise<void> | null = null;
    return {
      url: services.baseUrl(),
      localUrl: listening,
      services,
      catalog,
      stop() {
        stopping ??= (async () => {
          if (server) {
            const closed = new Promise((resolve) => server!.close(resolve));
            conductor?.close();
            server.closeIdleConnections();
            setTimeout(() => server?.closeAllConnections(), 2000).unref();
            await closed;
          }
          await worker?.stop();
          await closeDb();
          if (pidFile) fs.rmSync(pidFile, { force: true });
        })();
        return stopping;
      },
    };
  } catch (err) {
    if (server) await new Promise((resolve) => server!.close(resolve));
    await worker?.stop();
    await closeDb();
    throw err;
  }
}
