import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Db } from '../db/knex.js';
import type { Broadcast } from './broadcast.js';
import { createBroadcastListeners } from './broadcast-listeners.js';

/**
 * The NOTIFY channel, worked out by each connection from its own schema: instances of one shop (one
 * schema) share it, and shops or test suites in other schemas of the same database do not hear them.
 */
const CHANNEL_SQL = `'vpn_storefront_' || left(md5(coalesce(current_schema(), '')), 16)`;
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7999;
const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 10_000;

export interface PgBroadcast extends Broadcast {
  /** The server process of the LISTEN connection while it is up (for diagnostics and tests). */
  listenerPid(): number | undefined;
}

/**
 * Messages between instances through PostgreSQL's LISTEN/NOTIFY, for a shop on PostgreSQL without
 * Redis. One connection of its own (outside knex's pool, which would hand it to queries) listens; it
 * comes back with a growing delay after a drop, and then the resume listeners run, since messages
 * sent in the gap are lost. Publishing is one `pg_notify` through the pool.
 */
export function createPgBroadcast(options: { db: Db; onError?: (err: Error) => void; retryMs?: { first: number; max: number } }): PgBroadcast {
  const { db } = options;
  const retry = options.retryMs ?? { first: FIRST_RETRY_MS, max: MAX_RETRY_MS };
  const local = createBroadcastListeners();
  // Our own messages come back too: the sender's id lets us skip them (they ran at publish).
  const instanceId = randomUUID();
  let client: pg.Client | undefined;
  let pid: number | undefined;
  let everListened = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const receive = (notification: pg.Notification) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(notification.payload ?? '');
    } catch {
      return;
    }
    if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((part) => typeof part === 'string')) return;
    const [sender, channel, message] = parsed as [string, string, string];
    if (sender !== instanceId) local.deliver(channel, message);
  };

  const dropped = (gone: pg.Client, err?: Error) => {
    if (err) options.onError?.(err);
    if (client !== gone) return;
    client = undefined;
    pid = undefined;
    gone.end().catch(() => {});
    scheduleListen();
  };

  const scheduleListen = () => {
    if (closed || retryTimer) return;
    const delay = Math.min(retry.first * 2 ** failures, retry.max);
    failures += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void listen();
    }, delay);
  };

  const listen = async () => {
    let next: pg.Client | undefined;
    try {
      // A raw connection from knex: the pool's settings and search path, but not in the pool.
      next = await (db.client as { acquireRawConnection(): Promise<pg.Client> }).acquireRawConnection();
      const connection = next;
      connection.on('error', (err) => dropped(connection, err));
      connection.on('end', () => dropped(connection));
      connection.on('notification', receive);
      const {
        rows: [row],
      } = await connection.query<{ channel: string; pid: number }>(`select ${CHANNEL_SQL} as channel, pg_backend_pid() as pid`);
      await connection.query(`LISTEN ${connection.escapeIdentifier(row!.channel)}`);
      if (closed) return void (await connection.end());
      client = connection;
      pid = row!.pid;
      failures = 0;
      if (everListened) local.resume();
      everListened = true;
    } catch (err) {
      options.onError?.(err as Error);
      next?.end().catch(() => {});
      scheduleListen();
    }
  };
  void listen();

  return {
    publish(channel, message) {
      local.deliver(channel, message);
      const payload = JSON.stringify([instanceId, channel, message]);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        options.onError?.(new Error(`broadcast message on ${channel} too long for NOTIFY: not sent to other instances`));
        return;
      }
      db.raw(`select pg_notify(${CHANNEL_SQL}, ?)`, [payload]).catch((err: Error) => options.onError?.(err));
    },
    subscribe: local.subscribe,
    hearsOthers: () => client !== undefined,
    onResume: local.onResume,
    listenerPid: () => pid,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}
