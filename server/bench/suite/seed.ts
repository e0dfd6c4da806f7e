/**
 * The suite's data, the same shape on both databases, seeded once per database and size after the app's
 * own migrations (so columns and trigger-maintained counters that later migrations add are filled as the
 * app fills them): N users over the last year, a few admins; one in 5 has an active account on one of 3
 * servers, one in 10 an active subscription with a paid transaction in the last 90 days, one in 100 a
 * past-due subscription; 90 days of daily stats; the default plans. `bench@` owns 3 accounts.
 *
 * Ids, e-mail addresses and link tokens are functions of the user's number (below), so the suite knows
 * them without reading them back: SQLite gets them from multi-row inserts in one transaction
 * (better-sqlite3), PostgreSQL from `insert … select … from generate_series(…)`.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { createDb, dialectOf, type Db } from '../../src/db/knex.js';
import { deriveKeys, encryptSecret } from '../../src/lib/crypto.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { fillPaidState, PAID_STATE_TABLES } from '../../src/db/migrations/030-account-paid-state.js';
import { seedDefaultPlans } from '../../src/modules/plans/plans.seed.js';
import { PANEL_ADMIN, panelKey } from './panel-users.js';

/** The part of better-sqlite3 used here (the package ships no types, and knex's own types do not cover it). */
interface Sqlite {
  prepare(sql: string): { run(params: unknown[]): unknown };
  pragma(pragma: string): unknown;
  exec(sql: string): void;
  transaction(work: () => void): () => void;
  close(): void;
}
const openSqliteFile = (file: string) => new (createRequire(import.meta.url)('better-sqlite3') as new (file: string) => Sqlite)(file);

export const ADMIN_EMAIL = 'admin@bench.example.com';
export const CUSTOMER_EMAIL = 'bench@bench.example.com';
const DAY_MS = 24 * 3600_000;
const USERS_SPAN_MS = 365 * DAY_MS;
const REVENUE_DAYS = 90;
const SERVERS = 3;
const GB = 1024 ** 3;
/** Rows per SQLite insert statement (its limit is 32,766 bound values). */
const SQLITE_ROWS_PER_INSERT = 200;

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const pad = (i: number) => String(i).padStart(12, '0');

/** What the suite needs to know of user number `i` (0 is the admin, 1 the customer with 3 accounts). */
export const seeded = {
  userId: (i: number) => `00000000-0000-4000-8000-${pad(i)}`,
  email: (i: number) => (i === 0 ? ADMIN_EMAIL : i === 1 ? CUSTOMER_EMAIL : `${md5(String(i)).slice(0, 8)}.${i}@bench.example.com`),
  /** Users with an account: every fifth from 5 on; their link token. */
  hasAccount: (i: number) => i >= 5 && i % 5 === 0,
  subToken: (i: number) => md5(`${i}sub`),
};

export interface SeededDb {
  /** DATABASE_URL for the server process. */
  url: string;
  users: number;
  seconds: number;
  drop(): Promise<void>;
}

/**
 * Creates, migrates and fills a database of `users` users; the servers are the panel at `panelUrl`, its
 * password sealed with the server's APP_SECRET.
 */
export async function seedDatabase(
  kind: 'sqlite' | 'postgres',
  users: number,
  panel: { url: string; appSecret: string },
  where: { dir: string; pgUrl: string },
): Promise<SeededDb> {
  const panelUrl = panel.url;
  const started = performance.now();
  const opened = kind === 'sqlite' ? openSqlite(`${where.dir}/perf-${users}.db`) : await openPostgres(where.pgUrl, users);
  const db = createDb(opened.url);
  try {
    await migrateToLatest(db);
    const now = new Date();
    await seedDefaultPlans(db, now);
    const planIds = (await db('plans').orderBy('price').pluck('id')) as string[];
    const serverIds = Array.from({ length: SERVERS }, (_, s) => `00000000-0000-4000-9000-${pad(s)}`);
    await db('masterservers').insert(
      serverIds.map((id, s) => ({
        id,
        kind: 'marzneshin',
        name: `Server ${s + 1}`,
        url: panelUrl,
        username: PANEL_ADMIN.username,
        password_encrypted: encryptSecret(deriveKeys(panel.appSecret).encryption, PANEL_ADMIN.password),
        service_id: '1',
        created_at: now,
        updated_at: now,
      })),
    );
    const shape: Shape = { users, now: now.getTime(), panelUrl, planIds, serverIds };
    if (kind === 'sqlite') {
      await db.destroy();
      seedSqlite(opened.url.slice('sqlite:'.length), shape);
    } else {
      await seedPostgres(db, shape);
    }
  } finally {
    await db.destroy().catch(() => undefined);
  }
  return { url: opened.url, users, seconds: (performance.now() - started) / 1000, drop: opened.drop };
}

interface Shape {
  users: number;
  now: number;
  panelUrl: string;
  planIds: string[];
  serverIds: string[];
}

function openSqlite(file: string) {
  return { url: `sqlite:${file}`, drop: async () => {} };
}

async function openPostgres(adminUrl: string, users: number) {
  const name = `vpn_perf_${users}_${process.pid}`;
  const admin = createDb(adminUrl);
  await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
  await admin.raw('CREATE DATABASE ??', [name]);
  await admin.destroy();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const again = createDb(adminUrl);
      await again.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
      await again.destroy();
    },
  };
}

/** Inserts `rows` (arrays in `columns` order) with multi-row statements. */
function insertMany(sqlite: Sqlite, table: string, columns: string[], rows: Iterable<unknown[]>): void {
  const statement = (n: number) =>
    sqlite.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: n }, () => `(${columns.map(() => '?').join(', ')})`).join(', ')}`,
    );
  const full = statement(SQLITE_ROWS_PER_INSERT);
  let batch: unknown[] = [];
  let count = 0;
  for (const row of rows) {
    batch.push(...row);
    count += 1;
    if (count === SQLITE_ROWS_PER_INSERT) {
      full.run(batch);
      batch = [];
      count = 0;
    }
  }
  if (count > 0) statement(count).run(batch);
}

function* range(n: number) {
  for (let i = 0; i < n; i += 1) yield i;
}

/** Timestamps are epoch milliseconds and booleans 0/1 in SQLite, as knex writes them. */
function seedSqlite(file: string, shape: Shape): void {
  const { users, now, panelUrl, planIds, serverIds } = shape;
  const created = (i: number) => now - Math.floor(((users - i) / users) * USERS_SPAN_MS);
  const sqlite = openSqliteFile(file);
  sqlite.pragma('journal_mode = WAL');
  const accountOwners = function* () {
    yield* [1, 1, 1];
    for (let i = 5; i < users; i += 5) yield i;
  };
  sqlite.transaction(() => {
    insertMany(
      sqlite,
      'user_profiles',
      ['id', 'email', 'role', 'trial_used', 'created_at', 'updated_at'],
      (function* () {
        for (const i of range(users)) yield [seeded.userId(i), seeded.email(i), isAdmin(i, users) ? 'admin' : 'user', 0, created(i), created(i)];
      })(),
    );
    let n = 0;
    insertMany(
      sqlite,
      'vpn_accounts',
      ACCOUNT_COLUMNS,
      (function* () {
        for (const i of accountOwners()) {
          const k = n++;
          const token = i === 1 ? md5(`bench${k}`) : seeded.subToken(i);
          yield [
            accountId(k),
            seeded.userId(i),
            serverIds[i % SERVERS],
            planIds[i % planIds.length],
            `u_${k}`,
            'active',
            now + ((i % 60) + 1) * DAY_MS,
            10 * GB,
            token,
            `${panelUrl}/sub/u_${k}/${panelKey(k)}`,
            '{}',
            created(i),
            created(i),
          ];
        }
      })(),
    );
    insertMany(
      sqlite,
      'subscriptions',
      SUBSCRIPTION_COLUMNS,
      (function* () {
        for (let i = 10; i < users; i += 10) {
          const pastDue = i % 100 === 0;
          yield [
            subscriptionId(i),
            seeded.userId(i),
            accountId(2 + i / 5),
            planIds[i % planIds.length],
            pastDue ? 'past_due' : 'active',
            now - 20 * DAY_MS,
            now + 10 * DAY_MS,
            '{}',
            created(i),
            created(i),
          ];
        }
      })(),
    );
    insertMany(
      sqlite,
      'transactions',
      TRANSACTION_COLUMNS,
      (function* () {
        for (let i = 10; i < users; i += 10) {
          if (i % 100 === 0) continue;
          const at = now - ((i / 10) % REVENUE_DAYS) * DAY_MS - (i % 86_400) * 1000;
          yield [transactionId(i), subscriptionId(i), seeded.userId(i), 'succeeded', 999, 'usd', `ch_bench_${i}`, '{}', at, at];
        }
      })(),
    );
    insertMany(sqlite, 'daily_stats', ['metric', 'day', 'server_id', 'value', 'updated_at'], dailyStats(shape));
  })();
  // No ANALYZE: the app never runs it, so an operator's database has no statistics. With them, this build of
  // SQLite (STAT4) re-prepares a statement whenever it binds a value the planner looked at, on every run.
  sqlite.close();
}

const ACCOUNT_COLUMNS = [
  'id',
  'user_id',
  'master_server_id',
  'plan_id',
  'username',
  'status',
  'expire_date',
  'data_limit',
  'sub_token',
  'subscription_url',
  'metadata',
  'created_at',
  'updated_at',
];
const SUBSCRIPTION_COLUMNS = [
  'id',
  'user_id',
  'vpn_account_id',
  'plan_id',
  'status',
  'current_period_start',
  'current_period_end',
  'metadata',
  'created_at',
  'updated_at',
];
const TRANSACTION_COLUMNS = [
  'id',
  'subscription_id',
  'user_id',
  'status',
  'amount',
  'currency',
  'provider_transaction_id',
  'metadata',
  'created_at',
  'updated_at',
];
const isAdmin = (i: number, users: number) => i === 0 || i % Math.max(10, Math.floor(users / 4)) === 2;
/** Account k: the customer's three are 0–2, user i's (i = 5, 10, …) is 2 + i / 5. */
const accountId = (k: number) => `00000000-0000-4000-a000-${pad(k)}`;
const subscriptionId = (i: number) => `00000000-0000-4000-b000-${pad(i)}`;
const transactionId = (i: number) => `00000000-0000-4000-c000-${pad(i)}`;

function* dailyStats({ users, now, serverIds }: Shape) {
  for (let back = 1; back <= REVENUE_DAYS; back += 1) {
    const day = new Date(now - back * DAY_MS).toISOString().slice(0, 10);
    yield ['active_accounts', day, '', Math.round((users / 5) * (1 - back / (2 * REVENUE_DAYS))), now];
    for (const serverId of serverIds) yield ['traffic_bytes', day, serverId, 50 * GB, now];
  }
}

/** The same rows as seedSqlite, made by the database itself. */
async function seedPostgres(db: Db, shape: Shape): Promise<void> {
  if (dialectOf(db) !== 'postgres') throw new Error('seedPostgres needs PostgreSQL');
  const { users, now, panelUrl, planIds, serverIds } = shape;
  const ts = (ms: string) => `to_timestamp((${ms}) / 1000.0)`;
  const created = `${now} - floor((${users}::bigint - i) * ${USERS_SPAN_MS}::bigint / ${users})`;
  const id = (prefix: string, n: string) => `'00000000-0000-4000-${prefix}-' || lpad((${n})::text, 12, '0')`;
  const pick = (list: string[], n: string) => `(ARRAY[${list.map((x) => `'${x}'`).join(',')}])[(${n}) % ${list.length} + 1]`;
  const adminEvery = Math.max(10, Math.floor(users / 4));
  await db.transaction(async (trx) => {
    await trx.raw(`INSERT INTO user_profiles (id, email, role, trial_used, created_at, updated_at)
      SELECT ${id('8000', 'i')},
        CASE WHEN i = 0 THEN '${ADMIN_EMAIL}' WHEN i = 1 THEN '${CUSTOMER_EMAIL}' ELSE substr(md5(i::text), 1, 8) || '.' || i || '@bench.example.com' END,
        CASE WHEN i = 0 OR i % ${adminEvery} = 2 THEN 'admin' ELSE 'user' END, false, ${ts(created)}, ${ts(created)}
      FROM generate_series(0, ${users - 1}) AS i`);
    // The customer's three accounts (k 0–2, i = 1), then user i's for i = 5, 10, … (k = 2 + i / 5).
    const accountRows = `SELECT k, CASE WHEN k < 3 THEN 1 ELSE (k - 2) * 5 END AS i,
        CASE WHEN k < 3 THEN md5('bench' || k) ELSE md5(((k - 2) * 5)::text || 'sub') END AS token
      FROM generate_series(0, ${2 + Math.floor((users - 1) / 5)}) AS k`;
    await trx.raw(`INSERT INTO vpn_accounts (${ACCOUNT_COLUMNS.join(', ')})
      SELECT ${id('a000', 'k')}, ${id('8000', 'i')}, ${pick(serverIds, 'i')}, ${pick(planIds, 'i')}, 'u_' || k, 'active',
        ${ts(`${now} + (i % 60 + 1) * ${DAY_MS}::bigint`)}, ${10 * GB}, token, '${panelUrl}/sub/u_' || k || '/' || substr(md5('key' || k), 1, 16), '{}', ${ts(created)}, ${ts(created)}
      FROM (${accountRows}) AS a WHERE k < 3 OR (i >= 5 AND i < ${users})`);
    // Accounts' paid state is filled once after the payments (migration 030 does the same): its row triggers
    // would look the payments up again for each of a statement's hundred thousand rows.
    for (const table of PAID_STATE_TABLES) await trx.raw('ALTER TABLE ?? DISABLE TRIGGER ??', [table, `${table}_keep_account_paid_state_insert_delete`]);
    await trx.raw(`INSERT INTO subscriptions (${SUBSCRIPTION_COLUMNS.join(', ')})
      SELECT ${id('b000', 'i')}, ${id('8000', 'i')}, ${id('a000', '2 + i / 5')}, ${pick(planIds, 'i')}, CASE WHEN i % 100 = 0 THEN 'past_due' ELSE 'active' END,
        ${ts(`${now - 20 * DAY_MS}`)}, ${ts(`${now + 10 * DAY_MS}`)}, '{}', ${ts(created)}, ${ts(created)}
      FROM generate_series(10, ${users - 1}, 10) AS i`);
    const paidAt = `${now} - ((i / 10) % ${REVENUE_DAYS}) * ${DAY_MS}::bigint - (i % 86400) * 1000`;
    await trx.raw(`INSERT INTO transactions (${TRANSACTION_COLUMNS.join(', ')})
      SELECT ${id('c000', 'i')}, ${id('b000', 'i')}, ${id('8000', 'i')}, 'succeeded', 999, 'usd', 'ch_bench_' || i, '{}', ${ts(paidAt)}, ${ts(paidAt)}
      FROM generate_series(10, ${users - 1}, 10) AS i WHERE i % 100 <> 0`);
    for (const table of PAID_STATE_TABLES) await trx.raw('ALTER TABLE ?? ENABLE TRIGGER ??', [table, `${table}_keep_account_paid_state_insert_delete`]);
    await fillPaidState(trx);
    const stats = [...dailyStats(shape)].map(([metric, day, serverId, value]) => ({ metric, day, server_id: serverId, value, updated_at: new Date(now) }));
    await trx.batchInsert('daily_stats', stats, 200);
  });
  for (const table of ['user_profiles', 'vpn_accounts', 'subscriptions', 'transactions', 'daily_stats']) await db.raw('VACUUM ANALYZE ??', [table]);
  // The seed written out now, not by a checkpoint during the first measurements: a million users are about
  // 950 MB and more WAL than max_wal_size's default, whose write-back on a slow disk would land on whatever the
  // suite measures first.
  await db.raw('CHECKPOINT');
}
