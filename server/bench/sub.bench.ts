/**
 * `npx tsx server/bench/sub.bench.ts`: requests per second and p99 latency of our subscription link
 * `GET /sub/<token>` served from the cache, next to a trivial route (`GET /api/ping`) on the same server,
 * on SQLite, against a fake Marzneshin panel (request logging off). Target: sub / trivial ≥ 0.5.
 * The same route is measured again with an `x-hwid` header (a known device of the account, which has a
 * device limit): the device check must stay in memory. Target: with x-hwid / without ≥ 0.8.
 * BENCH_DURATION (s, default 10) and BENCH_CONNECTIONS (default 100) change the load.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { createDb } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createSettingsRepo } from '../src/modules/settings/settings.repo.js';
import { createSubscriptionService, subscriptionRoutes } from '../src/modules/subscription/subscription.routes.js';
import { createMarzneshinDriver } from '../src/panels/marzneshin.js';
import { errorsPlugin } from '../src/plugins/errors.js';
import { startFakeMarzneshin } from '../test/fake-panels/marzneshin.js';

export interface SubscriptionBenchResult {
  subReqPerSec: number;
  subP99: number;
  /** The same request from a known device (`x-hwid`) of an account with a device limit. */
  subHwidReqPerSec: number;
  subHwidP99: number;
  trivialReqPerSec: number;
  trivialP99: number;
}

const USER_AGENT = 'v2rayNG/1.8.0';
/** What Happ sends: its device id and what it says of the device. */
const DEVICE_HEADERS = { 'user-agent': 'Happ/3.2.1', 'x-hwid': 'bench-device-0001', 'x-device-os': 'Android', 'x-ver-os': '14', 'x-device-model': 'Pixel 8' };

async function load(url: string, connections: number, duration: number, headers: Record<string, string> = { 'user-agent': USER_AGENT }) {
  const result = await autocannon({ url, connections, duration, headers });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers out of ${result.requests.total}`);
  }
  return { reqPerSec: result.requests.average, p99: result.latency.p99 };
}

export async function benchSubscription(
  options: { durationSeconds?: number; connections?: number } = {},
): Promise<SubscriptionBenchResult> {
  const duration = options.durationSeconds ?? Number(process.env.BENCH_DURATION ?? 10);
  const connections = options.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 100);

  const dir = mkdtempSync(join(tmpdir(), 'vpn-sub-bench-'));
  const db = createDb(`sqlite:${join(dir, 'app.db')}`);
  const panel = await startFakeMarzneshin();
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  try {
    await migrateToLatest(db);

    // One account on the fake panel, and its row.
    const driver = createMarzneshinDriver({ url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1' });
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    const panelAccount = await driver.createAccount({ username: 'user_bench001', dataLimitBytes: 50 * 1024 ** 3, expiresAt, note: 'bench' });
    const now = new Date();
    const token = randomBytes(24).toString('base64url');
    await db('user_profiles').insert({ id: 'bench-user', email: 'bench@example.com', role: 'user', trial_used: false, created_at: now, updated_at: now });
    await db('masterservers').insert({
      id: 'bench-server', kind: 'marzneshin', name: 'Bench', url: panel.url, username: panel.admin.username, password_encrypted: 'unused',
      service_id: '1', locations: 'all', status: 'active', created_at: now, updated_at: now,
    });
    await db('vpn_accounts').insert({
      id: 'bench-account', user_id: 'bench-user', master_server_id: 'bench-server', username: panelAccount.username, status: 'active',
      expire_date: expiresAt, data_limit: 50 * 1024 ** 3, sub_token: token, subscription_url: panelAccount.subscriptionUrl,
      metadata: JSON.stringify({ used_traffic: 0, links: [] }), device_limit: 3, created_at: now, updated_at: now,
    });
    // The benchmark's device is one of the account's already (one of its 3).
    await db('account_devices').insert({
      id: 'bench-device', vpn_account_id: 'bench-account', hwid: DEVICE_HEADERS['x-hwid'], os: 'Android', os_version: '14', model: 'Pixel 8', app: 'Happ/3.2.1',
      first_seen_at: now, last_seen_at: now,
    });

    const settingsRepo = createSettingsRepo(db);
    const settings = {
      getAppSettings: async () => {
        const stored = await settingsRepo.getAppConfig();
        return { brandName: stored.brand_name ?? '', supportEmail: stored.support_email ?? '' };
      },
    };
    const service = createSubscriptionService({ db, settings, publicUrl: new URL('http://127.0.0.1:3000') });
    await app.register(errorsPlugin);
    await app.register(subscriptionRoutes, { service });
    app.get('/api/ping', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // Warm the cache (and check the answer is a real subscription).
    const warm = await fetch(`${base}/sub/${token}`, { headers: { 'user-agent': USER_AGENT } });
    if (warm.status !== 200) throw new Error(`warming /sub failed: HTTP ${warm.status} ${await warm.text()}`);
    const configuration = await warm.text();
    const fromDevice = await fetch(`${base}/sub/${token}`, { headers: DEVICE_HEADERS });
    if (fromDevice.status !== 200 || (await fromDevice.text()) !== configuration) {
      throw new Error(`the known device was not served the configuration: HTTP ${fromDevice.status}`);
    }
    const panelRequestsBefore = panel.requests.length;

    // A short run of each first, so neither measured run pays for the JIT's warm-up.
    await load(`${base}/sub/${token}`, connections, 1);
    await load(`${base}/sub/${token}`, connections, 1, DEVICE_HEADERS);
    const sub = await load(`${base}/sub/${token}`, connections, duration);
    const subHwid = await load(`${base}/sub/${token}`, connections, duration, DEVICE_HEADERS);
    const panelRequests = panel.requests.length - panelRequestsBefore;
    const trivial = await load(`${base}/api/ping`, connections, duration);
    if (panelRequests > Math.ceil((2 * duration) / 60) + 2) throw new Error(`the cache let ${panelRequests} requests through to the panel`);

    const devices = await db('account_devices').where({ vpn_account_id: 'bench-account' });
    if (devices.length !== 1) throw new Error(`expected the one known device, found ${devices.length}`);

    return { subReqPerSec: sub.reqPerSec, subP99: sub.p99, subHwidReqPerSec: subHwid.reqPerSec, subHwidP99: subHwid.p99, trivialReqPerSec: trivial.reqPerSec, trivialP99: trivial.p99 };
  } finally {
    await app.close();
    await panel.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const result = await benchSubscription({ connections, durationSeconds: duration });
  const ratio = result.subReqPerSec / result.trivialReqPerSec;
  const hwidRatio = result.subHwidReqPerSec / result.subReqPerSec;
  console.log(`GET /sub/<token> (cached) vs GET /api/ping, SQLite, fake Marzneshin, ${connections} connections, ${duration} s each`);
  console.log(`  /sub/<token>:          ${result.subReqPerSec.toFixed(0)} req/s, p99 ${result.subP99} ms`);
  console.log(`  /sub/<token> + x-hwid: ${result.subHwidReqPerSec.toFixed(0)} req/s, p99 ${result.subHwidP99} ms (a known device, account limited to 3)`);
  console.log(`  /api/ping:             ${result.trivialReqPerSec.toFixed(0)} req/s, p99 ${result.trivialP99} ms`);
  console.log(`  ratio sub / ping:      ${ratio.toFixed(2)} (target ≥ 0.5)`);
  console.log(`  ratio x-hwid / plain:  ${hwidRatio.toFixed(2)} (target ≥ 0.8)`);
  if (ratio < 0.5 || hwidRatio < 0.8) process.exitCode = 1;
}
