import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** Prefix of the Redis channels this app uses to tell its other instances about changes. */
const CHANNEL_PREFIX = 'vpn-storefront:';

export interface Broadcast {
  /** Runs this channel's listeners here at once and, with Redis, on every other instance. */
  publish(channel: string, message: string): void;
  subscribe(channel: string, listener: (message: string) => void): void;
  /**
   * True while a message published by another instance would reach us: always without Redis (one
   * instance), and with Redis only while the subscription is up.
   */
  hearsOthers(): boolean;
  /** Called when the subscription comes back after a gap, in which messages may have been missed. */
  onResume(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * Messages between the app's instances, for caches to drop what changed elsewhere. Without `REDIS_URL`
 * it only reaches this instance; with it, every instance subscribed to the same Redis. Delivery is
 * best effort: a cache that relies on it also bounds its entries' lifetime.
 */
export function createBroadcast(options: { redisUrl?: string; onError?: (err: Error) => void }): Broadcast {
  const listeners = new Map<string, Array<(message: string) => void>>();
  const resumeListeners: Array<() => void> = [];
  const deliver = (channel: string, message: string) => {
    for (const listener of listeners.get(channel) ?? []) listener(message);
  };
  const subscribeLocally = (channel: string, listener: (message: string) => void) => {
    listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
  };

  if (!options.redisUrl) {
    return {
      publish: deliver,
      subscribe: subscribeLocally,
      hearsOthers: () => true,
      onResume: () => {},
      close: async () => {},
    };
  }

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
    if (everSubscribed) for (const listener of resumeListeners) listener();
    everSubscribed = true;
  });
  subscriber.on('close', () => {
    subscribed = false;
  });
  subscriber.on('message', (fullChannel: string, raw: string) => {
    const space = raw.indexOf(' ');
    if (!fullChannel.startsWith(CHANNEL_PREFIX) || space < 0 || raw.slice(0, space) === instanceId) return;
    deliver(fullChannel.slice(CHANNEL_PREFIX.length), raw.slice(space + 1));
  });

  return {
    publish(channel, message) {
      deliver(channel, message);
      publisher.publish(CHANNEL_PREFIX + channel, `${instanceId} ${message}`).catch((err: Error) => options.onError?.(err));
    },
    subscribe(channel, listener) {
      if (!listeners.has(channel)) subscribeRemotely(channel);
      subscribeLocally(channel, listener);
    },
    hearsOthers: () => subscribed,
    onResume(listener) {
      resumeListeners.push(listener);
    },
    async close() {
      await Promise.all([publisher, subscriber].map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}
