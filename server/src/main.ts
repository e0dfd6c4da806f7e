import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDb } from './db/knex.js';
import { migrateToLatest } from './db/migrate.js';
import { seedDefaultPlans } from './modules/plans/plans.seed.js';

const SHUTDOWN_GRACE_MS = 10_000;

function describeDatabase(config: Config): string {
  return config.databaseUrl.startsWith('sqlite:') ? `SQLite (${config.databaseUrl.slice('sqlite:'.length)})` : 'PostgreSQL';
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nThe server did not start. See the configuration table in docs/configuration.md.\n`);
      process.exit(1);
    }
    throw err;
  }

  const db = createDb(config.databaseUrl);
  await migrateToLatest(db);
  const seeded = await seedDefaultPlans(db, new Date());
  const app = await buildApp({ config, db });
  if (seeded === 'seeded') app.log.info('first start: added the default plans (edit them in Admin Panel → Plans)');

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    setTimeout(() => {
      const pool = (db.client as { pool?: { numUsed(): number; numPendingAcquires(): number } }).pool;
      app.server.getConnections((_err, connections) => {
        app.log.error(
          {
            runningJobs: app.jobWorker.running(),
            openConnections: connections,
            databaseConnectionsInUse: pool?.numUsed(),
            databaseWaiting: pool?.numPendingAcquires(),
          },
          'shutdown took too long; exiting',
        );
        process.exit(1);
      });
    }, SHUTDOWN_GRACE_MS).unref();
    // The database closes last: onClose hooks run in reverse order, and the job worker (stopped by one of
    // them) may still be finishing a query.
    app
      .close()
      .then(() => db.destroy())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  await app.services.scheduleRecurringJobs();
  app.jobWorker.start();
  app.log.info({ database: describeDatabase(config), mail: config.smtpUrl ? 'SMTP' : 'printed to this log' }, `site running at ${config.publicUrl.origin}`);
  const setup = await app.services.setup.get();
  if (!setup.complete) {
    const left = setup.steps.filter((step) => !step.done).map((step) => step.label);
    app.log.warn({ left }, `setup not finished: ${left.join('; ')}. Sign in as an admin (ADMIN_EMAILS) and open ${new URL('/admin', config.publicUrl).href}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`The server failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
