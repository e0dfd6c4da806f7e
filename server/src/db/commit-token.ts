/**
 * A token that moves whenever a transaction commits to the database: what was read at one token is still
 * what the database holds while the token is the same. It lets an answer made of many rows be kept and
 * sent again until anything at all is written (a single app instance's cache can then be exact, with no
 * expiry and no list of the tables each answer reads).
 *
 * - SQLite (a file): `PRAGMA data_version` of the read connection (prepared-read.ts), which moves when any
 *   other connection commits; that connection never writes, so every write of the app moves it.
 * - PostgreSQL: the current snapshot (`txid_current_snapshot()`, `xmin:xmax:in-progress`): a commit either
 *   completes a transaction that was in progress or one started since, which moves its `xmax`. It reads the
 *   whole cluster, so a write anywhere in it also moves the token (a needless miss, never a stale hit). The
 *   reads asked for in one turn of the event loop are one round trip (batched-read.ts).
 * - An in-memory SQLite has no second connection: no token (`undefined`), nothing is kept.
 */
import { batchPerTurn } from './batched-read.js';
import { dialectOf, type Db } from './knex.js';
import { preparedFirst } from './prepared-read.js';

export type CommitToken = () => Promise<string | undefined>;

export function createCommitToken(db: Db): CommitToken {
  if (dialectOf(db) === 'postgres') {
    const snapshot = preparedFirst(db, () => db.raw('select txid_current_snapshot()::text as token'));
    const perTurn = batchPerTurn(async (keys: readonly number[]) => {
      const token = String((await snapshot())?.token);
      return keys.map(() => token);
    });
    return () => perTurn(0);
  }
  const filename = (db.client.config.connection as { filename?: string } | undefined)?.filename;
  if (!filename || filename === ':memory:') return async () => undefined;
  const dataVersion = preparedFirst(db, () => db.raw('PRAGMA data_version'));
  return async () => String((await dataVersion())?.data_version);
}
