import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from './knex.js';
import { migrateToLatest } from './migrate.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('SQLite files are readable by their owner only', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vpn-sqlite-mode-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const open = (url: string): Db => {
    const db = createDb(url);
    cleanups.push(() => db.destroy());
    return db;
  };

  it('creates a fresh database, its -wal and -shm with mode 0600 in a new folder with mode 0700', async () => {
    const dir = join(tempDir(), 'data');
    const file = join(dir, 'app.db');
    const db = open(`sqlite:${file}`);
    await migrateToLatest(db);
    await db('user_profiles').insert({ id: 'u1', email: 'a@example.com', role: 'user', trial_used: false, created_at: new Date(), updated_at: new Date() });
    for (const path of [file, `${file}-wal`, `${file}-shm`]) {
      expect(existsSync(path), path).toBe(true);
      expect(modeOf(path).toString(8), path).toBe('600');
    }
    expect(modeOf(dir).toString(8)).toBe('700');
  });

  it('tightens a database and its companions that an older version left world-readable', async () => {
    const file = join(tempDir(), 'old.db');
    const seed = open(`sqlite:${file}`);
    await migrateToLatest(seed);
    await seed.destroy();
    writeFileSync(`${file}-wal`, '');
    for (const path of [file, `${file}-wal`]) chmodSync(path, 0o644);

    const db = open(`sqlite:${file}`);
    expect(await db('user_profiles').count({ n: '*' })).toEqual([{ n: 0 }]);
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path).toString(8), path).toBe('600');
  });
});
