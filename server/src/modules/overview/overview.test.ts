import { randomUUID } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverview } from '../../../../shared/overview.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { createTestClock } from '../../../test/test-clock.js';
import { buildTestApp, signInWeb, type TestApp, type WebSession } from '../../../test/test-app.js';
import { dialectOf } from '../../db/knex.js';
import { SNAPSHOT_DAILY_STATS } from './snapshot-daily-stats.js';
import { addDays, utcDay } from './daily-stats.repo.js';

const DAY_MS = 24 * 3600_000;
/** Midday UTC: "today" is the 15th whatever the machine's time zone. */
const START = new Date('2026-03-15T12:00:00.000Z');
const TODAY = '2026-03-15';
/** A time on the UTC day `offset` days from today. */
const at = (offset: number, time = '12:00:00.000') => new Date(`${addDays(TODAY, offset)}T${time}Z`);

/**
 * The admin's overview: per UTC day of the last 7, 30 or 90 days, signups, trials, revenue (less
 * refunds), active accounts (hourly snapshots, today live) and traffic, with the shop's totals, each
 * read on an index; admins only.
 */
describe.each(TEST_DATABASES)('admin overview (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let customer: WebSession;

  const get = (query: string, session: WebSession | null = admin) =>
    t.app.inject({ method: 'GET', url: `/api/admin/overview${query}`, headers: session ? { cookie: session.cookie } : {} });
  const overview = async (days: number): Promise<AdminOverview> => {
    const res = await get(`?days=${days}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const statsRows = async () => Number((await env.database.db('daily_stats').count({ n: '*' }))[0]!.n);

  // Factories: rows as the app writes them, at the times a test names.
  async function addUser(createdAt: Date): Promise<string> {
    const id = randomUUID();
    await env.database
      .db('user_profiles')
      .insert({ id, email: `${id}@overview.test`, role: 'user', trial_used: false, created_at: createdAt, updated_at: createdAt });
    return id;
  }
  async function addAccount(userId: string, createdAt: Date, options: { status?: string; trial?: boolean } = {}): Promise<string> {
    const id = randomUUID();
    await env.database.db('vpn_accounts').insert({
      id,
      user_id: userId,
      username: `u_${id.slice(0, 12)}`,
      status: options.status ?? 'active',
      sub_token: randomUUID(),
      metadata: '{}',
      trial_user_id: options.trial ? userId : null,
      created_at: createdAt,
      updated_at: createdAt,
    });
    return id;
  }
  async function addPayment(userId: string, createdAt: Date, payment: { status: string; amount: number; refunded?: number; currency?: string }): Promise<void> {
    const subscriptionId = randomUUID();
    await env.database
      .db('subscriptions')
      .insert({ id: subscriptionId, user_id: userId, status: 'active', metadata: '{}', created_at: createdAt, updated_at: createdAt });
    await env.database.db('transactions').insert({
      id: randomUUID(),
      subscription_id: subscriptionId,
      user_id: userId,
      status: payment.status,
      amount: payment.amount,
      amount_refunded: payment.refunded ?? 0,
      currency: payment.currency ?? 'usd',
      metadata: '{}',
      created_at: createdAt,
      updated_at: createdAt,
    });
  }

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' }, clock: createTestClock(START) });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
    customer = await signInWeb(t, env.smtp, 'customer@example.com');
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('answers 401 signed out, 403 to a customer and 400 to a range it does not offer, writing nothing', async () => {
    const signedOut = await get('?days=7', null);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().code).toBe('unauthenticated');
    const asCustomer = await get('?days=7', customer);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().code).toBe('forbidden');
    for (const bad of ['14', '0', '-7', 'abc', '7.5', '']) {
      const res = await get(`?days=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message: 'days must be 7, 30 or 90' });
    }
    expect(await statsRows()).toBe(0);
  });

  it('a fresh install: zeros on every day, no traffic, no past snapshots, never an error', async () => {
    const res = await get('');
    expect(res.statusCode, res.body).toBe(200);
    const body: AdminOverview = res.json();
    expect(body.days).toBe(7);
    expect(body.dates).toEqual(['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15']);
    expect(body.signups).toEqual([0, 0, 0, 0, 0, 0, 2]); // the admin and the customer signed in today
    expect(body.trials).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(body.revenue).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(body.activeAccounts).toEqual([null, null, null, null, null, null, 0]);
    expect(body.traffic).toEqual([]);
    expect(body).toMatchObject({ currency: 'usd', totals: { users: 2, activeAccounts: 0, revenue: 0, signups: 2, trials: 0, trafficBytes: 0 } });
    const ninety = await overview(90);
    expect(ninety.dates).toHaveLength(90);
    expect(ninety.dates[0]).toBe(addDays(TODAY, -89));
    expect(ninety.revenue.every((value) => value === 0)).toBe(true);
  });

  it('sends the same overview brotli-compressed to a browser that asks for it', async () => {
    const plain = await get('?days=90');
    const br = await t.app.inject({
      method: 'GET',
      url: '/api/admin/overview?days=90',
      headers: { cookie: admin.cookie, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
  });

  it('counts signups, trials and revenue (less refunds) on their UTC day, exactly, in each range', async () => {
    // Signups: on both sides of midnight UTC, and before each range.
    await addUser(at(-2, '23:59:59.999'));
    await addUser(at(-1, '00:00:00.000'));
    await addUser(at(-1, '08:00:00.000'));
    await addUser(at(-6, '00:00:00.000')); // the first day of the 7-day range
    await addUser(at(-7, '23:59:59.999')); // the day before it
    await addUser(at(-40));
    await addUser(at(-95)); // before every range
    const buyer = await addUser(at(-100));

    // Trials: trial accounts only (a paid account is not a trial).
    const trialist = await addUser(at(-100));
    await addAccount(trialist, at(-3), { trial: true });
    await addAccount(await addUser(at(-100)), at(-3, '23:00:00.000'), { trial: true, status: 'expired' });
    await addAccount(await addUser(at(-100)), at(0, '01:00:00.000'), { trial: true });
    await addAccount(await addUser(at(-100)), at(-50), { trial: true });
    await addAccount(buyer, at(-3), { status: 'active' });

    // Revenue: succeeded, partly and wholly refunded count what was kept; nothing else counts.
    await addPayment(buyer, at(-1, '10:00:00.000'), { status: 'succeeded', amount: 1000 });
    await addPayment(buyer, at(-1, '11:00:00.000'), { status: 'succeeded', amount: 499, refunded: 199 });
    await addPayment(buyer, at(-4), { status: 'refunded', amount: 1299, refunded: 1299 });
    await addPayment(buyer, at(-4), { status: 'refunded', amount: 1299, refunded: 500 });
    await addPayment(buyer, at(0, '00:30:00.000'), { status: 'succeeded', amount: 250 });
    await addPayment(buyer, at(-20), { status: 'succeeded', amount: 7000 });
    await addPayment(buyer, at(-60), { status: 'succeeded', amount: 9000 });
    await addPayment(buyer, at(-95), { status: 'succeeded', amount: 100_000 }); // before every range
    for (const status of ['pending', 'failed', 'needs_review', 'disputed']) await addPayment(buyer, at(-1), { status, amount: 5000 });
    await addPayment(buyer, at(-1), { status: 'succeeded', amount: 5000, currency: 'eur' });

    const week = await overview(7);
    //                          -6 -5 -4 -3 -2 -1  0
    expect(week.signups).toEqual([1, 0, 0, 0, 1, 2, 2]);
    expect(week.trials).toEqual([0, 0, 0, 2, 0, 0, 1]);
    expect(week.revenue).toEqual([0, 0, 799, 0, 0, 1300, 250]);
    expect(week.totals).toMatchObject({ signups: 6, trials: 3, revenue: 2349 });
    // A payment in another currency than the store's is listed on its own, never added to the revenue.
    expect(week.currency).toBe('usd');
    expect(week.otherCurrencies).toEqual([{ currency: 'eur', revenue: 5000 }]);

    const month = await overview(30);
    expect(month.dates[0]).toBe(addDays(TODAY, -29));
    expect(month.signups.at(-8)).toBe(1);
    expect(month.revenue[month.dates.indexOf(addDays(TODAY, -20))]).toBe(7000);
    expect(month.totals).toMatchObject({ signups: 7, trials: 3, revenue: 9349 });

    const quarter = await overview(90);
    expect(quarter.totals).toMatchObject({ signups: 8, trials: 4, revenue: 18_349 });
    expect(quarter.signups.reduce((a, b) => a + b, 0)).toBe(8);
  });

  it('reads every figure from counters on an index: never users, accounts or transactions', async () => {
    await t.app.services.overview.takeSnapshot(); // as the hourly job has, long before anyone looks
    const db = env.database.db;
    const statements: Array<{ sql: string; bindings: unknown[] }> = [];
    const listen = (query: { sql: string; bindings?: unknown[] }) => statements.push({ sql: query.sql, bindings: query.bindings ?? [] });
    db.on('query', listen);
    let firstReads: number;
    let keptReads: number;
    let before: AdminOverview;
    let after: AdminOverview;
    try {
      before = await overview(90);
      firstReads = statements.length;
      await overview(90); // nothing was committed since: the same answer, no read
      keptReads = statements.length;
      await addUser(new Date());
      after = await overview(90); // a commit: today's figures again, the days before yesterday from memory
    } finally {
      db.removeListener('query', listen);
    }
    // On PostgreSQL the commit token is the whole cluster's: another test file's commit may come between the two calls.
    const keptCountReads = statements.slice(firstReads, keptReads).filter((s) => /overview_counts|daily_stats/.test(s.sql));
    if (dialectOf(db) === 'sqlite') expect(keptCountReads).toEqual([]);
    else expect(keptCountReads.length).toBeLessThanOrEqual(1);
    expect(after.totals.users).toBe(before.totals.users + 1);
    // The signed-in admin's session is checked as on every request; nothing else reads these tables (the test's insert writes one).
    expect(statements.filter((s) => /user_profiles|vpn_accounts|transactions/.test(s.sql) && !/sessions|^insert /i.test(s.sql)).map((s) => s.sql)).toEqual([]);
    const reads = statements.filter((s) => /overview_counts|daily_stats/.test(s.sql));
    // Yesterday's and today's counts, counts now, snapshots, traffic, the servers' names and the history's version, in one statement.
    expect(statements.slice(keptReads).filter((s) => /overview_counts|daily_stats/.test(s.sql))).toHaveLength(1);
    for (const { sql, bindings } of reads) {
      const plan =
        dialectOf(db) === 'postgres'
          ? await db.transaction(async (trx) => {
              await trx.raw('SET LOCAL enable_seqscan = off');
              const result: { rows: Array<Record<string, string>> } = await trx.raw(`EXPLAIN ${sql.replace(/\$\d+/g, '?')}`, bindings as never[]);
              return result.rows.map((row) => row['QUERY PLAN']).join('\n');
            })
          : (await db.raw<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${sql}`, bindings as never[])).map((row) => row.detail).join('\n');
      // The servers' names are the short table of servers, read whole.
      const planOfCounts = plan
        .split('\n')
        .filter((line) => !/masterservers/.test(line))
        .join('\n');
      expect(planOfCounts, plan).not.toMatch(/^\s*SCAN |Seq Scan/m);
    }
  });

  it('active accounts: past days from the hourly snapshot, today counted now; the user count follows signups after it', async () => {
    const db = env.database.db;
    await db('jobs').where({ type: SNAPSHOT_DAILY_STATS }).delete();
    await t.app.services.scheduleRecurringJobs();
    await t.app.services.scheduleRecurringJobs(); // two instances starting: one job
    const job = await db('jobs').where({ type: SNAPSHOT_DAILY_STATS });
    expect(job).toHaveLength(1);
    await db('jobs').whereNot({ type: SNAPSHOT_DAILY_STATS }).delete(); // only the snapshot runs here
    const activeBefore = Number((await db('vpn_accounts').where({ status: 'active' }).count({ n: '*' }))[0]!.n);
    const usersBefore = Number((await db('user_profiles').count({ n: '*' }))[0]!.n);
    while (await t.app.jobWorker.runOnce()) {
      /* the due snapshot */
    }
    expect(await db('daily_stats').where({ metric: 'active_accounts', day: TODAY }).first()).toMatchObject({ value: activeBefore });
    expect((await db('jobs').where({ type: SNAPSHOT_DAILY_STATS }).first()).status).toBe('queued'); // again in an hour

    // The next day: two more accounts are active now; yesterday keeps its snapshot.
    t.clock.advance(DAY_MS / 1000);
    const tomorrow = utcDay(t.clock.now());
    const newcomer = await addUser(t.clock.now());
    await addAccount(newcomer, t.clock.now());
    await addAccount(newcomer, t.clock.now());
    await addAccount(newcomer, t.clock.now(), { status: 'disabled' });
    const week = await overview(7);
    expect(week.dates.at(-1)).toBe(tomorrow);
    expect(week.activeAccounts.slice(-2)).toEqual([activeBefore, activeBefore + 2]);
    expect(week.activeAccounts.slice(0, 5)).toEqual([null, null, null, null, null]);
    expect(week.totals).toMatchObject({ activeAccounts: activeBefore + 2, users: usersBefore + 1 });
  });
});
