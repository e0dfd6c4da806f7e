/**
 * Reads that a burst of requests makes one at a time, made together: the lookups asked for while the event
 * loop reads its sockets are made as one statement when that turn ends (DataLoader). On PostgreSQL a round
 * trip costs the server more than the request it serves (the write to the database's socket is most of
 * it), so a burst of cold `/sub` requests or dashboard visits then costs one round trip per turn, not one
 * per request.
 *
 * Nothing is cached: each batch reads the database when it runs, after every request in it arrived, so a
 * request still reads what was committed before it came.
 */
import DataLoader from 'dataloader';
import { dialectOf, type Db } from './knex.js';

/** At most this many keys are read in one statement. */
export const MAX_KEYS_AT_ONCE = 100;

/**
 * `column` equals one of the strings of a JSON array bound as the one parameter (`?`): one statement for
 * any number of keys, and on both databases an index lookup per key (on PostgreSQL as `= any(array)`;
 * as `in (select …)` it would join a scan of the whole table to the list).
 */
export function whereInJsonArray(db: Db, column: string): string {
  return dialectOf(db) === 'postgres' ? `${column} = any(array(select json_array_elements_text(?::json)))` : `${column} in (select value from json_each(?))`;
}

/**
 * `load(key)` joins the batch of this turn of the event loop; `loadBatch` gets the batch's keys (up to
 * `maxBatchSize`, duplicates included) and answers each key in its place, or an Error for it.
 *
 * At most `maxInFlight` batches are read at once: the lookups asked for meanwhile wait and go together when
 * one ends (a burst of cold `/sub` requests on PostgreSQL: about 23 tokens a batch with one in flight, 19
 * without a limit), so a burst makes fewer round trips; waiting costs a request a fraction of a millisecond.
 */
export function batchPerTurn<K, V>(
  loadBatch: (keys: readonly K[]) => Promise<ReadonlyArray<V | Error>>,
  { maxBatchSize = MAX_KEYS_AT_ONCE, maxInFlight = Infinity }: { maxBatchSize?: number; maxInFlight?: number } = {},
): (key: K) => Promise<V> {
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  const start = (dispatch: () => void) => {
    inFlight++;
    setImmediate(dispatch);
  };
  const counted = async (keys: readonly K[]) => {
    try {
      return await loadBatch(keys);
    } finally {
      inFlight--;
      const next = waiting.shift();
      if (next) start(next);
    }
  };
  const loader = new DataLoader<K, V>(counted, {
    cache: false,
    maxBatchSize,
    batchScheduleFn: (dispatch) => (inFlight < maxInFlight ? start(dispatch) : waiting.push(dispatch)),
  });
  return (key) => loader.load(key);
}

/** An error as an Error (what DataLoader answers a key with). */
export const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
