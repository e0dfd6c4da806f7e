import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { dialectOf, type Db } from '../db/knex.js';
import { createBroadcastListeners } from './broadcast-listeners.js';
import { createPgBroadcast } from './pg-broadcast.js';

/** Prefix of the Redis channels this app uses to tell its other instances about changes. */
const CHANNEL_PREFIX = 'vpn-storefront:';

export interface Broadcast {
  /** Runs this channel's listeners here at once and, through Redis or PostgreSQL, on every other instance. */
  publish(channel: string, message: string): void;
  subscribe(channel: string, listener: (message: string) => void): void;
  /**
   * True while a message published by another instance would reach us: always with neither Redis nor
   * PostgreSQL (one instance), else only while the subscription (Redis) or LISTEN connection is up.
   */
  hearsOthers(): boolean;
  /** Called when the subscription comes back after a gap, in which messages may have been missed. */
  onResume(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * Messages between the app's instances, for caches to drop what changed elsewhere: through Redis when
 * `REDIS_URL` is set, else through PostgreSQL's LISTEN/NOTIFY when the database is PostgreSQL, else
 * only to this instance (SQLite: there is one). Delivery is best effort: a cache that relies on it
 * also bounds its entries' lifetime.
 */
export function createBroadcast(options: { redisUrl?: string; db?: Db; onError?: (err: Error) => void }): Broadcast {
  if (options.redisUrl) return createRedisBroadcast({ redisUrl: options.redisUrl, onError: options.onError });
  if (options.db && dialectOf(options.db) === 'postgres') return createPgBroadcast({ db: options.db, onError: options.onError });
  const local = createBroadcastListeners();
  return {
    publish: local.deliver,
    subscribe: local.subscribe,
    hearsOthers: () => true,
    onResume: () => {},
    close: async () => {},
  };
}

function createRedisBroadcast(options: { redisUrl: string; onError?: (err: Error) => void }): Broadcast {
  const local = createBroadcastListeners();
  // Our own messages come back from Redis too: the sender's id lets us skip them (they ran at publish).
  const instanceId = randomUUID();
  const redisOptions = { connectTimeout: 2000, maxRetriesPerRequest: 1 } as const;
  const publisher = new Redis(options.redisUrl, redisOptions);
  const subscriber = new Redis(options.redisUrl, redisOptions);
  for (const client of [publisher, subscriber]) client.on('error', (err) => options.onError?.(err));
  let subscribed = false;
  let everSubscribed = false;
  const subscribeRemotely = (channel: string) => {
    subscriber.subscribe(CHANNEL_PREFIX + channel).catch((err: Error) => options.onError?.(err));
  };
  // ioredis subscribes again by itself after a reconnect and then says 'ready'.
  subscriber.on('ready', () => {
    subscribed = true;
    if (everSubscribed) local.resume();
    everSubscribed = true;
  });
  subscriber.on('close', () => {
    subscribed = false;
  });
  subscriber.on('message', (fullChannel: string, raw: string) => {
    const space = raw.indexOf(' ');
    if (!fullChannel.startsWith(CHANNEL_PREFIX) || space < 0 || raw.slice(0, space) === instanceId) return;
    local.deliver(fullChannel.slice(CHANNEL_PREFIX.length), raw.slice(space + 1));
  });

  return {
    publish(channel, message) {
      local.deliver(channel, message);
      publisher.publish(CHANNEL_PREFIX + channel, `${instanceId} ${message}`).catch((err: Error) => options.onError?.(err));
    },
    subscribe(channel, listener) {
      if (!local.has(channel)) subscribeRemotely(channel);
      local.subscribe(channel, listener);
    },
    hearsOthers: () => subscribed,
    onResume: local.onResume,
    async close() {
      // QUIT waits for Redis's answer: a Redis that is away (or hung) gets the connection dropped instead.
      await Promise.all(
        [publisher, subscriber].map(async (client) => {
          if (client.status !== 'ready') return client.disconnect();
          const timer = setTimeout(() => client.disconnect(), 1_000);
          await client.quit().catch(() => client.disconnect());
          clearTimeout(timer);
        }),
      );
    },
  };
}
