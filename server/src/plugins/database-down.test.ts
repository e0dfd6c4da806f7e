import { existsSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../db/knex.js';
import { SITE_DIST_DIR } from '../lib/package-info.js';
import { seedDefaultPlans } from '../modules/plans/plans.seed.js';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../test/databases.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';

/** A TCP hop in front of PostgreSQL that can be cut: to the app, the database server stopped. */
async function startCuttableProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    /** New connections are refused and open ones reset, as when PostgreSQL stops. */
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

const PAGES = ['/', '/pricing', '/download/windows', '/ru/pricing'];

describe.each(TEST_DATABASES)('the public pages while the database is down (%s)', (kind) => {
  let database: TestDatabase;
  let appDb: Db;
  let t: TestApp;
  let takeDown: () => Promise<void>;

  beforeAll(async () => {
    if (!existsSync(join(SITE_DIST_DIR, 'manifest.json'))) throw new Error('The site is not built: run `npm run build:web` first.');
    database = await createTestDatabase(kind);
    await seedDefaultPlans(database.db, new Date());
    if (kind === 'postgres') {
      const url = new URL(database.url);
      const proxy = await startCuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.host = `127.0.0.1:${proxy.port}`;
      appDb = createDb(url.href, { searchPath: database.schema });
      takeDown = proxy.cut;
    } else {
      appDb = createDb(database.url);
      takeDown = () => appDb.destroy();
    }
    t = await buildTestApp({ db: appDb });
  });
  afterAll(async () => {
    await t.app.close();
    await appDb.destroy().catch(() => undefined);
    await database.destroy();
  });

  it('serves /, /pricing and /download/windows from what it last read, at once, with the prices', async () => {
    const before = new Map<string, string>();
    for (const path of PAGES) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      before.set(path, res.body);
    }
    await takeDown();
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    // Past every cache's time limit: each page would read the settings and plans again.
    t.clock.advance(60);
    for (const path of PAGES) {
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      expect(Date.now() - started, path).toBeLessThan(2_000);
      expect(res.body, path).toBe(before.get(path));
    }
    expect((await t.app.inject({ method: 'GET', url: '/pricing' })).body).toContain('$12.99');
    expect((await t.app.inject({ method: 'GET', url: '/api/config' })).statusCode).toBe(200);
  });
});
