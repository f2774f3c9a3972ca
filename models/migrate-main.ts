/** Entry of the migration child process (migrate-apart.ts): applies pending migrations and exits. */
import { Sequelize } from 'sequelize';
import { migrate } from './migrate.ts';
import { MIGRATE_URL_ENV } from './migrate-apart.ts';

const url = process.env[MIGRATE_URL_ENV];
if (!url) {
  process.stderr.write(`${MIGRATE_URL_ENV} is not set: this process only runs migrations for the service\n`);
  process.exit(2);
}
// Two connections at least: the migration lock's transaction holds one while each migration runs in its own.
const sequelize = new Sequelize(url, { dialect: 'postgres', logging: false, pool: { max: 3, min: 0 } });
try {
  await migrate(sequelize);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await sequelize.close();
}
