import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { purgeCutoffs, purgeRules, type PurgeRule } from '../../modules/retention/retention-purge.js';
import * as retentionIndexes from './007-retention-indexes.js';

describe.each(TEST_DATABASES)('migration 007-retention-indexes (%s)', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await database.destroy();
  });

  const cutoffs = purgeCutoffs(new Date(), { retentionDays: 30, auditRetentionDays: 365 });

  /** The plan of the rows one purge statement picks; PostgreSQL is told to avoid a table scan if any index can serve. */
  async function planOf(rule: PurgeRule): Promise<string> {
    const { db } = database;
    const { sql, bindings } = rule.narrow(db(rule.table).select('id'), cutoffs).limit(5000).toSQL();
    if (kind === 'sqlite') {
      const rows: Array<{ detail: string }> = await db.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings);
      return rows.map((row) => row.detail).join('\n');
    }
    return db.transaction(async (trx) => {
      await trx.raw('SET LOCAL enable_seqscan = off');
      const result: { rows: Array<Record<string, string>> } = await trx.raw(`EXPLAIN ${sql}`, bindings);
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  const scansTable = /^SCAN |Seq Scan/m;

  it('makes every statement of the purge a range on an index, not a table scan', async () => {
    for (const rule of purgeRules(['sweep_stuck_accounts', 'purge_old_rows'])) {
      const plan = await planOf(rule);
      expect(plan, rule.table).toMatch(new RegExp(`${rule.table}_\\w+_index`));
      expect(plan, rule.table).not.toMatch(scansTable);
    }
  });

  it('down drops the indexes (the purge scans again) and up puts them back', async () => {
    const [codes] = purgeRules([]);
    await retentionIndexes.down(database.db);
    expect(await planOf(codes!)).toMatch(scansTable);
    await retentionIndexes.up(database.db);
    expect(await planOf(codes!)).toMatch(/otp_codes_expires_at_index/);
  });
});
