import { Redis } from 'ioredis';

/** Redis channel on which instances tell each other that what the public pages show has changed. */
const CHANNEL = 'vpn-storefront:site-changed';

export interface ChangeSignal {
  /** Moves whenever `changed()` is called here, or (with Redis) on any instance. */
  version(): number;
  /** Something the public pages or settings show has changed: caches keyed by the version miss from now on. */
  changed(): void;
  close(): Promise<void>;
}

/**
 * One number for "the site changed": settings, card settings or plans. Caches (pages, public settings)
 * keep their content while it stays the same. With `REDIS_URL` a change is published, and every
 * instance moves its number when it hears it; if Redis is away, each instance still sees its own
 * changes at once and the caches' short lifetime bounds how stale another instance can be.
 */
export function createChangeSignal(options: { redisUrl?: string; onError?: (err: Error) => void }): ChangeSignal {
  let version = 0;
  const bump = () => {
    version += 1;
  };
  if (!options.redisUrl) return { version: () => version, changed: bump, close: async () => {} };

  const redisOptions = { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false } as const;
  const publisher = new Redis(options.redisUrl, redisOptions);
  const subscriber = new Redis(options.redisUrl, redisOptions);
  for (const client of [publisher, subscriber]) client.on('error', (err) => options.onError?.(err));
  subscriber.subscribe(CHANNEL).catch((err: Error) => options.onError?.(err));
  subscriber.on('message', (channel) => {
    if (channel === CHANNEL) bump();
  });
  return {
    version: () => version,
    changed() {
      bump();
      publisher.publish(CHANNEL, String(Date.now())).catch((err: Error) => options.onError?.(err));
    },
    async close() {
      await Promise.all([publisher, subscriber].map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}
