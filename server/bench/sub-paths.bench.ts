/**
 * `npx tsx server/bench/sub-paths.bench.ts` (and part of `npm run bench`): issue 52's `/sub` paths through the
 * whole app (`buildApp()`, SQLite, or PostgreSQL with `BENCH_DB=postgres`), each against today's `/sub` with a
 * known device id (`x-hwid`), cached and cold (target ≥ 0.8 each):
 *
 * - on a spare subscription domain that was marked blocked (the answer carries `new-domain` / `new-url`);
 * - from an app without a device id, counted as a device (`devicelessClients: "count"`);
 *
 * and a first fetch (no stored copy) through a Remnawave panel behind TLS, to the panel's own rate at the same
 * concurrency (target ≥ 0.9): the panel (the fake, answering in BENCH_PANEL_DELAY ms, default 200: the real Remnawave's p99 was 220 ms, as a real
 * one's work takes) sits behind a TLS terminator with a self-signed certificate in a process of its own
 * (suite/tls-panel.ts), its public subscription domain unresolvable, so every fetch goes through the panel URL
 * on connections kept alive.
 *
 * Routes take turns in BENCH_ROUNDS rounds (default 3) of BENCH_DURATION seconds (default 2); cold runs take a
 * new account for every request (BENCH_ACCOUNTS per path, default 70 000; a fifth of that for the first fetches).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { migrateToLatest } from '../src/db/migrate.js';
import { createMarzneshinDriver } from '../src/panels/marzneshin.js';
import { REMNAWAVE_SUBSCRIPTION_USER_AGENT } from '../src/panels/remnawave.js';
import { FORWARDED_HEADERS } from '../src/panels/remnawave-http.js';
import { anonymousDevice } from '../src/modules/devices/device-headers.js';
import { startFakeMarzneshin } from '../test/fake-panels/marzneshin.js';
import { startServer, startTlsPanel } from './suite/processes.js';
import { DEVICE_HEADERS, load, ON_POSTGRES, openDatabase, startInstance, USER_AGENT, type Load } from './sub.bench.js';

export interface SubPathsBenchLine {
  name: string;
  reqPerSec: number;
  p99: number;
  ratio: number;
  target: number | null;
}

const OLD_DOMAIN = 'old.bench.test';
const NEW_DOMAIN = 'new.bench.test';
export async function benchSubPaths(
  options: { durationSeconds?: number; rounds?: number; connections?: number; accounts?: number; panelDelayMs?: number } = {},
): Promise<SubPathsBenchLine[]> {
  const duration = options.durationSeconds ?? Number(process.env.BENCH_DURATION ?? 2);
  const rounds = options.rounds ?? Number(process.env.BENCH_ROUNDS ?? 3);
  const connections = options.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 50);
  const perPath = options.accounts ?? Number(process.env.BENCH_ACCOUNTS ?? 70_000);
  const firstFetchAccounts = Math.max(2000, Math.floor(perPath / 5));
  const panelDelayMs = options.panelDelayMs ?? Number(process.env.BENCH_PANEL_DELAY ?? 200);
  // The bench's own panel has a self-signed certificate; nothing else is fetched by this process.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

  const dir = mkdtempSync(join(tmpdir(), 'vpn-sub-paths-bench-'));
  const { db, drop } = await openDatabase(dir);
  const marzneshin = await startFakeMarzneshin();
  const front = await startTlsPanel(panelDelayMs);
  const instances: FastifyInstance[] = [];
  let fetcher: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    await migrateToLatest(db);
    const now = new Date();
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    await db('settings').insert({
      id: 'app_config',
      updated_at: now,
      value: JSON.stringify({
        deviceless_clients: 'count',
        subscription_domains: [
          { domain: OLD_DOMAIN, blocked: true },
          { domain: NEW_DOMAIN, blocked: false },
        ],
      }),
    });
    await db('user_profiles').insert({ id: 'bench-user', email: 'bench@example.com', role: 'user', trial_used: false, created_at: now, updated_at: now });
    const mzn = createMarzneshinDriver({ url: marzneshin.url, username: marzneshin.admin.username, password: marzneshin.admin.password, serviceId: '1' });
    const mznUsers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => mzn.createAccount({ username: `user_paths${i}`, dataLimitBytes: 50 * 1024 ** 3, expiresAt, note: 'bench' })),
    );
    await db('masterservers').insert([
      {
        id: 'bench-mzn',
        kind: 'marzneshin',
        name: 'Bench',
        url: marzneshin.url,
        username: marzneshin.admin.username,
        password_encrypted: 'unused',
        service_id: '1',
        locations: 'all',
        status: 'active',
        created_at: now,
        updated_at: now,
      },
      {
        id: 'bench-rmw',
        kind: 'remnawave',
        name: 'Bench TLS',
        url: front.url,
        username: '',
        password_encrypted: 'unused',
        service_id: 'unused',
        locations: 'all',
        status: 'active',
        created_at: now,
        updated_at: now,
      },
    ]);

    // Accounts: the cached one, then a range per cold path, then the first fetches through TLS.
    const paths = ['hwid', 'spare', 'counted'] as const;
    const ranges: Record<string, string[]> = {};
    const rows: Array<Record<string, unknown>> = [];
    const add = (server: 'bench-mzn' | 'bench-rmw', subscriptionUrl: string, deviceLimit: number | null) => {
      const token = randomBytes(24).toString('base64url');
      rows.push({
        id: randomUUID(),
        user_id: 'bench-user',
        master_server_id: server,
        username: `bench_${rows.length}`,
        status: 'active',
        expire_date: expiresAt,
        data_limit: 50 * 1024 ** 3,
        sub_token: token,
        subscription_url: subscriptionUrl,
        metadata: JSON.stringify({ used_traffic: 0 }),
        device_limit: deviceLimit,
        created_at: now,
        updated_at: now,
      });
      return token;
    };
    const cachedToken = add('bench-mzn', mznUsers[0]!.subscriptionUrl, 3);
    for (const path of paths) ranges[path] = Array.from({ length: perPath }, (_, i) => add('bench-mzn', mznUsers[i % 4]!.subscriptionUrl, 3));
    const firstFetches = Array.from({ length: firstFetchAccounts }, (_, i) => add('bench-rmw', front.subscriptionUrls[i % 4]!, null));
    await db.batchInsert('vpn_accounts', rows, 500);
    // Every limited account already knows its device: Happ's id, and the counted app from this address.
    const counted = anonymousDevice(USER_AGENT, '127.0.0.1');
    const devices: Array<Record<string, unknown>> = rows
      .filter((row) => row.device_limit !== null)
      .flatMap((row) => [
        {
          id: randomUUID(),
          vpn_account_id: row.id,
          hwid: DEVICE_HEADERS['x-hwid'],
          os: 'Android',
          os_version: '14',
          model: 'Pixel 8',
          app: 'Happ/3.2.1',
          anonymous: false,
          first_seen_at: now,
          last_seen_at: now,
        },
        {
          id: randomUUID(),
          vpn_account_id: row.id,
          hwid: counted.hwid,
          os: null,
          os_version: null,
          model: null,
          app: counted.app,
          anonymous: true,
          first_seen_at: now,
          last_seen_at: now,
        },
      ]);
    await db.batchInsert('account_devices', devices, 500);

    // The first instance fetches one account per panel user, and every limited account's copy is stored as those.
    if (process.env.BENCH_VERBOSE) console.log(`  seeded ${rows.length} accounts`);
    const first = await startInstance(db, dir);
    instances.push(first.app);
    const tokenOf = new Map(rows.map((row) => [row.sub_token as string, row]));
    const warmed = [cachedToken, ...paths.map((path) => ranges[path]!.slice(0, 4)).flat()];
    for (const token of warmed) {
      const res = await fetch(`${first.base}/sub/${token}`, { headers: DEVICE_HEADERS });
      if (res.status !== 200) throw new Error(`warming /sub failed: HTTP ${res.status} ${await res.text()}`);
    }
    const copies = await db('subscription_copies').whereIn(
      'vpn_account_id',
      warmed.map((token) => tokenOf.get(token)!.id as string),
    );
    const copyOf = new Map(copies.map((copy) => [copy.subscription_url, copy]));
    const fetched = new Set(copies.map((copy) => copy.vpn_account_id));
    const rest = rows.filter((row) => row.master_server_id === 'bench-mzn' && !fetched.has(row.id));
    await db.batchInsert(
      'subscription_copies',
      rest.map((row) => ({ ...copyOf.get(row.subscription_url), vpn_account_id: row.id })),
      500,
    );
    await db('subscription_copies').update({ fetched_at: new Date(Date.now() - 3_600_000) });
    marzneshin.faults.delayMs = 200;

    // A second, fresh instance over the same database: every account asked for there once is cold.
    const second = await startInstance(db, dir);
    instances.push(second.app);
    // First fetches go to a server process of its own (as in production: the load generator shares no event loop
    // with it), on the same SQLite file; on PostgreSQL to the second instance.
    fetcher = ON_POSTGRES
      ? undefined
      : await startServer(`sqlite:${join(dir, 'app.db')}`, 'bench-admin@example.com', fileURLToPath(new URL('../src', import.meta.url)), {
          NODE_TLS_REJECT_UNAUTHORIZED: '0',
        });
    const cursors: Record<string, number> = { hwid: 4, spare: 4, counted: 4, first: 0 };
    // Out of accounts, a path asks for its last one again (throwing inside the load generator would hang it)
    // and the benchmark fails once the run is over.
    const exhausted = new Set<string>();
    const next = (name: string, tokens: string[]) => () => {
      const index = cursors[name]!;
      if (index >= tokens.length) {
        exhausted.add(name);
        return `/sub/${tokens[tokens.length - 1]}`;
      }
      cursors[name] = index + 1;
      return `/sub/${tokens[index]}`;
    };
    const shortUuid = new URL(front.subscriptionUrls[0]!).pathname.split('/').filter(Boolean).pop();
    const panelOwn = { 'user-agent': REMNAWAVE_SUBSCRIPTION_USER_AGENT, accept: '*/*', ...FORWARDED_HEADERS };
    const COUNTED_HEADERS = { 'user-agent': USER_AGENT };
    const allRuns: Record<string, Omit<Load, 'connections'> & { base: string }> = {
      hwid: { base: first.base, path: `/sub/${cachedToken}`, headers: DEVICE_HEADERS },
      spare: { base: first.base, path: `/sub/${cachedToken}`, headers: { ...DEVICE_HEADERS, host: OLD_DOMAIN } },
      counted: { base: first.base, path: `/sub/${cachedToken}`, headers: COUNTED_HEADERS },
      hwidCold: { base: second.base, path: next('hwid', ranges.hwid!), headers: DEVICE_HEADERS },
      spareCold: { base: second.base, path: next('spare', ranges.spare!), headers: { ...DEVICE_HEADERS, host: OLD_DOMAIN } },
      countedCold: { base: second.base, path: next('counted', ranges.counted!), headers: COUNTED_HEADERS },
      panel: { base: front.url, path: `/api/sub/${shortUuid}`, headers: panelOwn },
      firstFetch: { base: fetcher?.base ?? second.base, path: next('first', firstFetches) },
    };
    // BENCH_ONLY=panel,firstFetch runs only those (while working on one path).
    const only = process.env.BENCH_ONLY?.split(',');
    const runs = Object.fromEntries(Object.entries(allRuns).filter(([name]) => !only || only.includes(name)));
    // Each answer is what it should be before anything is measured.
    // (fetch cannot set Host: undici's request can.)
    const moved = await request(`${first.base}/sub/${cachedToken}`, { headers: { ...DEVICE_HEADERS, host: OLD_DOMAIN } });
    await moved.body.text();
    if (moved.headers['new-domain'] !== NEW_DOMAIN) throw new Error(`the blocked domain's answer has no new-domain: ${moved.statusCode}`);
    const anonymous = await fetch(`${first.base}/sub/${cachedToken}`, { headers: COUNTED_HEADERS });
    if (anonymous.status !== 200 || anonymous.headers.has('x-hwid-max-devices-reached'))
      throw new Error(`the counted app was not served: HTTP ${anonymous.status}`);
    // Timed runs (autocannon's `amount` ends on its once-a-second tick, which shortchanges the rate).
    const measure = (_name: string, run: Omit<Load, 'connections'> & { base: string }, warmUp = false) =>
      load(run.base, { ...run, connections, duration: warmUp ? 1 : duration });
    // A short run of each first, so no measured run pays for the JIT's warm-up.
    for (const [name, run] of Object.entries(runs)) await measure(name, run, true);

    const totals = Object.fromEntries(Object.keys(runs).map((name) => [name, { requests: 0, seconds: 0, p99: 0 }]));
    for (let round = 0; round < rounds; round += 1) {
      for (const [name, run] of Object.entries(runs)) {
        if (process.env.BENCH_VERBOSE) console.log(`  round ${round + 1}: ${name}`);
        const measured = await measure(name, run);
        const total = totals[name]!;
        total.requests += measured.total;
        total.seconds += measured.seconds;
        total.p99 = Math.max(total.p99, measured.p99);
      }
    }
    if (exhausted.size > 0) throw new Error(`ran out of new accounts for ${[...exhausted].join(', ')}: raise BENCH_ACCOUNTS`);
    await second.app.services.subscription.whenIdle();
    const limitedDevices = Number((await db('account_devices').count({ n: '*' }).first())?.n ?? 0);
    if (limitedDevices !== devices.length) throw new Error(`devices were added while measuring: ${limitedDevices} against ${devices.length}`);

    const rate = (name: string) => totals[name]!.requests / totals[name]!.seconds;
    const line = (name: string, run: string, base: string | null, target: number | null): SubPathsBenchLine | null =>
      totals[run] && (!base || totals[base]) ? { name, reqPerSec: rate(run), p99: totals[run].p99, ratio: base ? rate(run) / rate(base) : NaN, target } : null;
    return [
      line('GET /sub with x-hwid (cached)', 'hwid', null, null),
      line('  on a blocked spare domain (to x-hwid)', 'spare', 'hwid', 0.8),
      line('  an app without an id, counted (to x-hwid)', 'counted', 'hwid', 0.8),
      line(`GET /sub with x-hwid (cold, ${totals.hwidCold?.requests} accounts)`, 'hwidCold', null, null),
      line('  on a blocked spare domain (cold, to x-hwid)', 'spareCold', 'hwidCold', 0.8),
      line('  an app without an id, counted (cold, to x-hwid)', 'countedCold', 'hwidCold', 0.8),
      line(`Remnawave behind TLS, its own /api/sub (${panelDelayMs} ms a request)`, 'panel', null, null),
      line(`  first fetch through /sub (${totals.firstFetch?.requests} accounts, to the panel)`, 'firstFetch', 'panel', 0.9),
    ].filter((entry) => entry !== null);
  } finally {
    await fetcher?.stop();
    for (const app of instances) await app.close();
    await front.stop();
    await marzneshin.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printSubPaths(lines: readonly SubPathsBenchLine[]): void {
  for (const r of lines) {
    const verdict = r.target === null ? '' : r.ratio >= r.target ? ` ok (target ≥ ${r.target})` : ` BELOW target ${r.target}`;
    const ratio = Number.isNaN(r.ratio) ? '' : `  ratio ${r.ratio.toFixed(2)}${verdict}`;
    console.log(`  ${r.name.padEnd(62)} ${r.reqPerSec.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms${ratio}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const lines = await benchSubPaths();
  console.log(`/sub paths of issue 52 through buildApp(), ${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'}`);
  printSubPaths(lines);
}
