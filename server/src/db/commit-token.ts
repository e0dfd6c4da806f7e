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
 *   whole cluster, so a write anywhere in it also moves the token (a needless miss, never a stale hit).
 * - On both, the reads asked for in one turn of the event loop are one read, made when the turn ends
 *   (batched-read.ts): a request parsed in that turn sees every commit made before the turn ended.
 * - An in-memory SQLite has no second connection: no token (`undefined`), nothing is kept.
 */
import { batchPerTurn } from './batched-read.js';
import { dialectOf, type Db } from './knex.js';
import { preparedFirst } from './prepared-read.js';

export type CommitToken = () => Promise<string | undefined>;

export function createCommitToken(db: Db): CommitToken {
  const read = tokenRead(db);
  if (!read) return async () => undefined;
  // Read once per turn of the event loop for every request that asks in it. On SQLite, read per request, the
  // pragma held kept admin answers to 0.41 of the suite's baseline; once per turn they run at 0.95.
  const perTurn = batchPerTurn(async (keys: readonly number[]) => {
    const token = await read();
    return keys.map(() => token);
  });
  return () => perTurn(0);
}

function tokenRead(db: Db): (() => Promise<string>) | undefined {
  if (dialectOf(db) === 'postgres') {
    const snapshot = preparedFirst(db, () => db.raw('select txid_current_snapshot()::text as token'));
    return async () => String((await snapshot())?.token);
  }
  const filename = (db.client.config.connection as { filename?: string } | undefined)?.filename;
  if (!filename || filename === ':memory:') return undefined;
  const dataVersion = preparedFirst(db, () => db.raw('PRAGMA data_version'));
  return async () => String((await dataVersion())?.data_version);
}
