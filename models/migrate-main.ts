/** Entry of the migration child process (migrate-apart.ts): applies pending migrations and exits. */
import { connect } from '../core/database.ts';
import { createLogger } from '../core/logger.ts';
import { migrate } from './migrate.ts';
import { MIGRATE_URL_ENV } from './migrate-apart.ts';

const url = process.env[MIGRATE_URL_ENV];
if (!url) {
  process.stderr.write(`${MIGRATE_URL_ENV} is not set: this process only runs migrations for the service\n`);
  process.exit(2);
}
// The service's own connection settings; the migration lock's transaction holds one pool connection while each migration runs in another.
const db = connect(url, createLogger('error'), { poolSize: 3 });
try {
  await migrate(db.pool);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}
