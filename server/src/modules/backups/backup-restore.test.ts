import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { bearer, buildTestApp, TEST_APP_SECRET, type DesktopSession } from '../../../test/test-app.js';
import { createDb } from '../../db/knex.js';
import { migrateToLatest } from '../../db/migrate.js';
import { decryptSecret, deriveKeys } from '../../lib/crypto.js';
import { createPanelDriver } from '../../panels/index.js';
import { ROOT_DIR } from '../../lib/package-info.js';
import { seedDefaultPlans } from '../plans/plans.seed.js';

const PASSPHRASE = 'correct horse battery staple';

/** `npm run backup` / `npm run restore` as the operator runs them: a process of their own with only this environment. */
function runCli(name: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT_DIR, 'server', 'src', 'cli', `${name}.ts`), ...args], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

/**
 * Backups that restore (docs/backups.md): a backup taken by `npm run backup` while 20 customers buy at once
 * restores, with `npm run restore`, into an empty folder where the purchases, the accounts and the panel's
 * password (opened with the restored secret) are all there and the store starts; a live folder and a wrong
 * passphrase are refused.
 */
// Each test starts the command line (tsx) once or more: slow on a busy two-core machine.
describe('backup and restore (sqlite)', { timeout: 120_000 }, () => {
  // The backup process starting up shares the two cores with the purchases: give the fake panel time to answer.
  const f = useBillingFixture('sqlite', {
    overrides: () => ({ driverFactory: (kind, connection) => createPanelDriver(kind, connection, { timeoutMs: 10_000 }) }),
  });
  const scratch = mkdtempSync(join(tmpdir(), 'vpn-backup-test-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const liveEnv = () => {
    const url = f.env.database.url;
    return { DATABASE_URL: url, DATA_DIR: dirname(url.slice('sqlite:'.length)), APP_SECRET: TEST_APP_SECRET, BACKUP_DIR: join(scratch, 'backups') };
  };
  let backupFile = '';
  let snapshotAt = 0;
  const buyers: Array<{ user: DesktopSession; answeredAt: number; status: number }> = [];

  beforeAll(async () => {
    const users: DesktopSession[] = [];
    for (let i = 0; i < 20; i += 1) users.push(await f.newUser());
    for (const user of users) {
      const funded = await f.call(f.admin, 'POST', `/api/admin/users/${user.userId}/wallet`, { amount: 499, note: 'Opening balance' });
      expect(funded.statusCode, funded.body).toBe(200);
    }
    const purchases = users.map(async (user) => {
      const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'wallet' });
      buyers.push({ user, answeredAt: Date.now(), status: res.statusCode });
    });
    const [backup] = await Promise.all([runCli('backup', [], { ...liveEnv(), BACKUP_PASSPHRASE: PASSPHRASE }), ...purchases]);
    expect(backup.code, backup.stderr).toBe(0);
    backupFile = lastLine(backup.stdout);
    expect(backupFile).toMatch(/backup-\d{8}-\d{6}Z\.vpnbackup$/);
    snapshotAt = Date.parse(JSON.parse(readFileSync(backupFile, 'utf8').split('\n')[1]!).createdAt);
    expect(buyers.map((buyer) => buyer.status)).toEqual(Array(20).fill(200));
  }, 60_000);

  it('restores into an empty folder: the purchases, the accounts and the panel password are there, and the store starts', async () => {
    const fresh = join(scratch, 'fresh');
    const url = `sqlite:${join(fresh, 'app.db')}`;
    const restored = await runCli('restore', [backupFile], { DATABASE_URL: url, DATA_DIR: fresh, BACKUP_PASSPHRASE: PASSPHRASE });
    expect(restored.code, restored.stderr).toBe(0);
    const secret = readFileSync(join(fresh, 'app-secret'), 'utf8').trim();
    expect(secret).toBe(TEST_APP_SECRET);

    const db = createDb(url);
    try {
      await migrateToLatest(db);
      const server = await db('masterservers').where({ id: f.serverId }).first();
      expect(decryptSecret(deriveKeys(secret).encryption, server.password_encrypted)).toBe(f.panel.admin.password);
      const t = await buildTestApp({ db, env: { APP_SECRET: secret } });
      try {
        let present = 0;
        for (const { user, answeredAt } of buyers) {
          // Each customer is there and still signed in (the session and the secret that signs it came back).
          const wallet = await t.app.inject({ method: 'GET', url: '/api/wallet', headers: bearer(user.accessToken) });
          expect(wallet.statusCode, wallet.body).toBe(200);
          const bought = (await db('transactions').where({ user_id: user.userId, status: 'succeeded' })).length === 1;
          // All or nothing: a purchase in the backup took the money with it, one not in it left the balance whole.
          expect(wallet.json().balance).toBe(bought ? 0 : 499);
          if (answeredAt < snapshotAt) expect(bought, 'a purchase answered before the backup began').toBe(true);
          if (bought) present += 1;
        }
        // The purchases were all answered before the backup process had started its copy (it takes a while to start).
        expect(present).toBe(20);
        const plans = (await f.call(null, 'GET', '/api/plans')).json();
        expect((await t.app.inject({ method: 'GET', url: '/api/plans' })).json()).toEqual(plans);
      } finally {
        await t.app.close();
      }
    } finally {
      await db.destroy();
    }
  });

  it('refuses to restore over a live store, and a wrong passphrase, writing nothing', async () => {
    const live = await runCli('restore', [backupFile], { ...liveEnv(), APP_SECRET: '', BACKUP_PASSPHRASE: PASSPHRASE });
    expect(live.code).toBe(1);
    expect(live.stderr).toMatch(/Refusing to restore: a database already exists at .*app\.db/);

    const other = join(scratch, 'other');
    const wrong = await runCli('restore', [backupFile], {
      DATABASE_URL: `sqlite:${join(other, 'app.db')}`,
      DATA_DIR: other,
      BACKUP_PASSPHRASE: 'not the passphrase',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/Wrong passphrase/);
    expect(existsSync(join(other, 'app.db')) || existsSync(join(other, 'app-secret'))).toBe(false);

    const none = await runCli('restore', [backupFile], { DATABASE_URL: `sqlite:${join(other, 'app.db')}`, DATA_DIR: other });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/BACKUP_PASSPHRASE is not set/);
  });

  it('keeps the secret sealed: neither it nor the data is in the file in the clear', () => {
    const bytes = readFileSync(backupFile);
    expect(bytes.includes(Buffer.from(TEST_APP_SECRET))).toBe(false);
    expect(bytes.includes(Buffer.from('SQLite format 3'))).toBe(false);
    expect(bytes.includes(Buffer.from('buyer1-sqlite@example.com'))).toBe(false);
    expect(readdirSync(dirname(backupFile))).toEqual([backupFile.split('/').at(-1)]);
  });
});

const hasPgTools = spawnSync('pg_dump', ['--version']).status === 0 && spawnSync('pg_restore', ['--version']).status === 0;

// Needs a PostgreSQL server (TEST_DATABASE_URL, always set by .ci/run) and its client tools (pg_dump, pg_restore).
describe.skipIf(!process.env.TEST_DATABASE_URL || !hasPgTools)('backup and restore (postgres)', { timeout: 120_000 }, () => {
  const name = (role: string) => `backup_${role}_${randomBytes(4).toString('hex')}`;
  const source = name('source');
  const target = name('target');
  const urlOf = (database: string) => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const scratch = mkdtempSync(join(tmpdir(), 'vpn-backup-pg-'));
  const admin = createDb(process.env.TEST_DATABASE_URL ?? 'postgres://unused');
  let seededPlanNames: string[] = [];

  beforeAll(async () => {
    await admin.raw('CREATE DATABASE ??', [source]);
    await admin.raw('CREATE DATABASE ??', [target]);
    const db = createDb(urlOf(source));
    await migrateToLatest(db);
    await seedDefaultPlans(db, new Date());
    const t = await buildTestApp({ db });
    seededPlanNames = (await t.app.inject({ method: 'GET', url: '/api/plans' })).json().map((plan: { name: string }) => plan.name);
    expect(seededPlanNames.length).toBeGreaterThan(0);
    await t.app.close();
    await db.destroy();
  });
  afterAll(async () => {
    for (const database of [source, target]) await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [database]);
    await admin.destroy();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('pg_dump while it runs, pg_restore into an empty database that then starts; a database with tables is refused', async () => {
    const env = { APP_SECRET: TEST_APP_SECRET, DATA_DIR: join(scratch, 'data'), BACKUP_DIR: join(scratch, 'backups'), BACKUP_PASSPHRASE: PASSPHRASE };
    const backup = await runCli('backup', [], { ...env, DATABASE_URL: urlOf(source) });
    expect(backup.code, backup.stderr).toBe(0);
    const file = lastLine(backup.stdout);

    const refused = await runCli('restore', [file], { ...env, DATABASE_URL: urlOf(source) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already has tables/);

    const restored = await runCli('restore', [file], { ...env, DATABASE_URL: urlOf(target) });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/APP_SECRET already holds/);
    const db = createDb(urlOf(target));
    try {
      await migrateToLatest(db);
      const t = await buildTestApp({ db });
      try {
        const plans = (await t.app.inject({ method: 'GET', url: '/api/plans' })).json();
        expect(plans.map((plan: { name: string }) => plan.name)).toEqual(seededPlanNames);
      } finally {
        await t.app.close();
      }
    } finally {
      await db.destroy();
    }
  });
});
