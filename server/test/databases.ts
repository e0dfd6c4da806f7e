import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateToLatest } from '../src/db/migrate.js';

export type TestDatabaseKind = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL when TEST_DATABASE_URL points at a server (.ci/run always sets it). */
export const TEST_DATABASES: TestDatabaseKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  kind: TestDatabaseKind;
  db: Db;
  /** A URL another process can open to reach the same data (PostgreSQL: with the schema in `options`). */
  url: string;
  schema?: string;
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database of the given kind: a temporary SQLite file, or a PostgreSQL schema of
 * its own (so test files can run in parallel against one server). Destroy drops it.
 */
export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'vpn-test-'));
    const url = `sqlite:${join(dir, 'app.db')}`;
    const db = createDb(url);
    await migrateToLatest(db);
    return {
      kind,
      db,
      url,
      async destroy() {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = createDb(serverUrl);
  await admin.raw('CREATE SCHEMA ??', [schema]);
  await admin.destroy();
  const db = createDb(serverUrl, { searchPath: schema });
  await migrateToLatest(db);
  return {
    kind,
    db,
    url: serverUrl,
    schema,
    async destroy() {
      await db.raw('DROP SCHEMA ?? CASCADE', [schema]);
      await db.destroy();
    },
  };
}
