import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { openServices, startService } from '../core/service.ts';
import { StalePostgresError, inspectPostmaster, runningPostmaster, stopStartedPostgres } from '../core/embedded-postgres.ts';
import { createSignInLink } from '../auth/email-code.ts';
import { ensureUser } from '../tools/account/users.ts';
import { inTransaction } from '../core/tx.ts';
import { readOutbox } from '../core/mailer.ts';
import { rotateSigningKey } from '../auth/oauth/keys.ts';
import { listOperators, setAdminFlag } from '../tools/admin/operators.ts';
import { boundHeapGrowth, releaseStartupGarbage } from '../core/heap.ts';
import { onStopSignal } from '../core/stop-signals.ts';

const HELP = `Verbatim — interviews in, evidence out.

Usage: npm start                      start HTTP, MCP, OAuth and the worker
       npm run worker                 run a worker alone against the same database
       npm run --silent cli -- <command> [options]

Commands:
  start                               same as npm start
  worker                              same as npm run worker
  migrate                             apply database migrations and exit
  login --email <address> [--name <name>] [--admin]
                                      create the user (and personal organization) if missing and
                                      print {"token", "user_id", "org_handle"} as one JSON line
  login --link --email <address>      print a one-time sign-in URL for the workspace (/app), valid 10 minutes
  admin grant --email <address>       make an existing user an operator (admin routes); prints the user as JSON
  admin revoke --email <address>      take the operator flag away again
  admin list                          print the operators as JSON
  db-stop                             stop an embedded Postgres left running by a killed process
  outbox                              print the mail waiting in the local outbox (when SMTP_URL is unset)
  oauth-rotate-key                    add a new OAuth signing key (restart servers to sign with it; old tokens stay valid)

Environment: PORT (3000), HOST (127.0.0.1), DATA_DIR (./.data), DATABASE_URL, WORKER=off,
             ENCRYPTION_KEY, BASE_URL, LOG_LEVEL, EMBEDDED_PG_PORT (54329), SMTP_URL, MAIL_FROM`;

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** How long a crashing process tries to stop cleanly before it stops only its Postgres. */
const CRASH_STOP_MS = 10_000;

async function start(workerOnly: boolean) {
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  // Ctrl-C or SIGTERM at any moment stops cleanly and exits 0: one that comes while starting is
  // acted on as soon as the service is up (it then stops at once, without announcing itself).
  let stopSignal: string | null = null;
  const stopAndExit = (running: NonNullable<typeof service>) =>
    running.stop().then(
      () => process.exit(0),
      (err) => fail(`Stop failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  onStopSignal((signal) => {
    if (stopSignal) fail(`Second ${signal}: exiting without a clean stop.`, 130);
    stopSignal = signal;
    process.stderr.write(`\n${signal} received: stopping...\n`);
    if (service) void stopAndExit(service);
  });
  boundHeapGrowth();
  const config = loadConfig();
  if (workerOnly) config.worker = true;
  const log = createLogger(config.logLevel);
  // A bug anywhere must not leave a Postgres running without its owner: log it, stop what we
  // can within a bound, always stop the embedded Postgres we started, and exit non-zero.
  let crashing = false;
  const crash = (kind: string) => (err: unknown) => {
    log.error(`${kind}: exiting`, { error: err instanceof Error ? err.stack : String(err) });
    if (crashing) return;
    crashing = true;
    const within = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((resolve) => setTimeout(resolve, CRASH_STOP_MS))]);
    void within(service ? service.stop() : Promise.resolve())
      .then(() => within(stopStartedPostgres()))
      .finally(() => process.exit(1));
  };
  process.on('uncaughtException', crash('uncaughtException'));
  process.on('unhandledRejection', crash('unhandledRejection'));
  try {
    service = await startService(config, { log, http: !workerOnly, attach: workerOnly });
  } catch (err) {
    if (err instanceof StalePostgresError) fail(err.message);
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') fail(`Port ${config.port} is in use: stop what runs there or set PORT.`);
    fail(`Could not start: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (stopSignal) return void stopAndExit(service);
  releaseStartupGarbage();
  const base = service.url;
  if (workerOnly) {
    process.stdout.write(`Verbatim worker running against ${config.databaseUrl ? 'DATABASE_URL' : path.join(config.dataDir, 'pg')}. Ctrl-C stops it.\n`);
  } else {
    process.stdout.write(
      [
        '',
        `  Verbatim is running${config.worker ? ' (with its worker)' : ''}`,
        '',
        `  Workspace  ${base}/app  (sign in with an e-mailed code, or: npm run cli -- login --link --email you@example.com)`,
        `  Base URL   ${base}`,
        `  MCP        ${base}/mcp`,
        `  API docs   ${base}/api/docs`,
        `  OpenAPI    ${base}/api/openapi`,
        `  Widget     ${base}/sdk/widget.js (demo: ${base}/sdk/demo?key=<project SDK key>)`,
        `  Data       ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}`,
        '',
        '  Get a token:  npm run --silent cli -- login --email you@example.com',
        `  Then:         curl -H "Authorization: Bearer <token>" ${base}/api/auth/session`,
        '',
        '  Ctrl-C stops everything.',
        '',
      ].join('\n'),
    );
  }
}

async function withServices<T>(fn: (s: Awaited<ReturnType<typeof openServices>>['services']) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const opened = await openServices(config, log, true).catch((err) => fail(err instanceof Error ? err.message : String(err)));
  try {
    return await fn(opened.services);
  } finally {
    await opened.closeDb();
  }
}

async function login(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, name: { type: 'string' }, admin: { type: 'boolean', default: false }, link: { type: 'boolean', default: false } },
    strict: true,
  });
  const email = values.email?.trim();
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail('login needs --email <address>, e.g. --email you@example.com', 2);
  if (values.link) {
    const url = await withServices((services) => createSignInLink(services, email));
    return void process.stdout.write(`${url}\n`);
  }
  const out = await withServices(async (services) => {
    const user = await inTransaction(services.db.pool, (sql) => ensureUser({ email, name: values.name ?? null, isAdmin: values.admin }, sql));
    const org = (await services.db.pool.query<{ handle: string }>('SELECT handle FROM organizations WHERE id = $1', [user.personal_org_id])).rows[0];
    const { token } = await services.tokens.issue(user.id, 'cli');
    return { token, user_id: user.id, org_handle: org!.handle };
  });
  process.stdout.write(JSON.stringify(out) + '\n');
}

async function admin(argv: string[]) {
  const [action, ...args] = argv;
  if (action === 'list') {
    const operators = await withServices((services) => listOperators(services));
    return void process.stdout.write(JSON.stringify({ admins: operators }) + '\n');
  }
  if (action !== 'grant' && action !== 'revoke') fail('admin needs grant, revoke or list, e.g. admin grant --email you@example.com', 2);
  const { values } = parseArgs({ args, options: { email: { type: 'string' } }, strict: true });
  const email = values.email?.trim();
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail(`admin ${action} needs --email <address>`, 2);
  const user = await withServices((services) => setAdminFlag(services, email, action === 'grant'));
  if (!user) fail(`No user with e-mail ${email}. They sign in first, or: npm run cli -- login --email ${email} --admin`);
  process.stdout.write(JSON.stringify(user) + '\n');
}

async function dbStop() {
  const config = loadConfig();
  const pgDir = path.join(config.dataDir, 'pg');
  const found = inspectPostmaster(pgDir);
  if (found.status === 'absent') return void process.stdout.write('No embedded Postgres is running for this data folder.\n');
  // Only a process verified to be this folder's Postgres is signalled; a reused pid may be anything.
  if (found.status === 'stale') {
    return void process.stdout.write(`No embedded Postgres is running for this data folder: its postmaster.pid is stale (${found.found}). Nothing was signalled.\n`);
  }
  process.kill(found.pid, 'SIGINT');
  for (let i = 0; i < 100 && runningPostmaster(pgDir); i++) await new Promise((r) => setTimeout(r, 100));
  if (runningPostmaster(pgDir)) fail(`Postgres (pid ${found.pid}) did not stop within 10 s.`);
  process.stdout.write(`Stopped embedded Postgres (pid ${found.pid}).\n`);
}

const [command, ...rest] = process.argv.slice(2);
try {
  switch (command) {
    case 'start':
      await start(false);
      break;
    case 'worker':
      await start(true);
      break;
    case 'migrate':
      await withServices(async () => process.stdout.write('Migrations are up to date.\n'));
      process.exit(0);
    // falls through (process.exit never returns)
    case 'login':
      await login(rest);
      process.exit(0);
    // falls through
    case 'admin':
      await admin(rest);
      process.exit(0);
    // falls through
    case 'db-stop':
      await dbStop();
      process.exit(0);
    // falls through
    case 'oauth-rotate-key': {
      const out = await withServices((services) => rotateSigningKey(services.db.pool));
      process.stdout.write(`New signing key ${out.kid}; ${out.kept} keys published. Restart servers to sign with it.\n`);
      process.exit(0);
    }
    // falls through
    case 'outbox': {
      const mails = await readOutbox(loadConfig().dataDir);
      if (!mails.length) process.stdout.write('The outbox is empty.\n');
      for (const m of mails) process.stdout.write(`--- ${m.queued_at}\nTo: ${m.to}\nSubject: ${m.subject}\n\n${m.text}\n\n`);
      process.exit(0);
    }
    // falls through
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(HELP + '\n');
      process.exit(0);
    // falls through
    default:
      fail(`Unknown command "${command}".\n\n${HELP}`, 2);
  }
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
