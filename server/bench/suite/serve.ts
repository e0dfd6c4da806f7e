/**
 * The server process the suite loads (forked by perf-suite.ts, over IPC): what `server/src/main.ts` does
 * on an already migrated and seeded database, with every rate limit opened (the suite measures the work,
 * not the limits) and e-mail handed to the parent (it signs in with the codes). No job worker or recurring
 * jobs: nothing runs beside the requests being measured. The app comes from BENCH_SERVER_DIR: the build
 * (dist/server/src) or the sources. Reports `{ port }` once listening.
 *
 * No logger, unless BENCH_LOG says which (redaction.bench.ts), at `info` as in production, each line serialized and
 * then dropped: `redacted` is the app's own (lib/logger-options.ts: redact paths, masking serializers, formatter and
 * hook), `plain` the same logger without any of them (Fastify's own serializers).
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Mailer } from '../../src/mail/mailer.js';
import type { RateLimits } from '../../src/plugins/rate-limit.js';

export type ChildMessage = { port: number } | { mail: { to: string; subject: string } };

const dir = pathToFileURL(`${process.env.BENCH_SERVER_DIR ?? new URL('../../src', import.meta.url).pathname}/`);
const from = <T>(module: string) => import(new URL(module, dir).href) as Promise<T>;
const { buildApp } = await from<typeof import('../../src/app.js')>('app.js');
const { loadConfig } = await from<typeof import('../../src/config.js')>('config.js');
const { createDb } = await from<typeof import('../../src/db/knex.js')>('db/knex.js');
const { DEFAULT_RATE_LIMITS } = await from<typeof import('../../src/plugins/rate-limit.js')>('plugins/rate-limit.js');

const send = (message: ChildMessage) => process.send!(message);
const openLimits = Object.fromEntries(
  Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, { max: 1_000_000_000, windowSeconds: 60 }]),
) as unknown as RateLimits;
const config = loadConfig();
const db = createDb(config.databaseUrl);
const mailer: Mailer = { kind: 'log', send: async ({ to, subject }) => void send({ mail: { to, subject } }), verify: async () => true, close() {} };
const dropLines = { write() {} };
const loggers = {
  redacted: { level: 'info', stream: dropLines },
  plain: { level: 'info', stream: dropLines, redact: undefined, serializers: {}, formatters: {}, hooks: {} },
};
const logger = loggers[process.env.BENCH_LOG as keyof typeof loggers] ?? false;
const app = await buildApp({ config, db, mailer, logger, rateLimits: openLimits });
await app.listen({ port: 0, host: '127.0.0.1' });
send({ port: (app.server.address() as AddressInfo).port });

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => db.destroy())
    .finally(() => process.exit(0));
});
