import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** Prefix of the counters' Redis keys. */
export const RATE_LIMIT_KEY_PREFIX = 'vpn-storefront-rl:';

/** How long a Redis command may take before the counters fall back to this process. */
const COMMAND_TIMEOUT_MS = 300;
/** After a failed command while connected, how long until Redis is asked again (by a ping, never by a request). */
const PROBE_AFTER_MS = 2_000;
/** Keys kept per limit in memory; past it, the oldest window is forgotten (an attacker's many addresses cannot fill the heap). */
const LOCAL_KEYS_PER_LIMIT = 10_000;

/** One window's count, and how long until it resets (ms). */
interface Count {
  current: number;
  ttl: number;
}

/** Where the counters are now: in this process (no REDIS_URL), in Redis, or in this process while Redis cannot be reached. */
export interface RateLimitCountersState {
  store: 'memory' | 'redis' | 'memory_fallback';
  /** Since when Redis could not be reached (`memory_fallback` only). */
  redisDownSince: Date | null;
}

/** INCR with the window set on the first hit; a key left without an expiry (never by us) gets one. */
const INCREMENT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

type RedisWithIncrement = Redis & { rateLimitIncrement(key: string, windowMs: number): Promise<[number, number]> };

/** Fixed-window counters of one limit in this process. */
function createLocalCounter(now: () => number) {
  const windows = new Map<string, { current: number; resetAt: number }>();
  return (key: string, windowMs: number): Count => {
    const at = now();
    let window = windows.get(key);
    if (!window || window.resetAt <= at) {
      windows.delete(key);
      if (windows.size >= LOCAL_KEYS_PER_LIMIT) windows.delete(windows.keys().next().value!);
      window = { current: 0, resetAt: at + windowMs };
      windows.set(key, window);
    }
    window.current += 1;
    return { current: window.current, ttl: window.resetAt - at };
  };
}

/**
 * The counters behind `app.limiter`: in this process without REDIS_URL; with it, in Redis (shared by every
 * instance) while Redis answers, and in this process while it does not. A request never waits for a Redis
 * that is away: commands go only to a connected Redis and give up after COMMAND_TIMEOUT_MS, after which Redis
 * is left alone until it reconnects or answers a ping. The limits hold either way, counted per instance while
 * Redis is away; the counts start over in Redis when it returns.
 */
export function createRateLimitCounters(options: { redisUrl: string | undefined; log: FastifyBaseLogger; now?: () => number }) {
  const now = options.now ?? Date.now;
  const { log } = options;
  let redis: RedisWithIncrement | undefined;
  let downSince: number | null = null;
  /** Redis failed a command while connected: requests count here until a ping (or a reconnect) says it is back. */
  let unhealthy = false;
  let probing = false;
  let probeAfter = 0;

  const markDown = (reason: string) => {
    if (downSince === null) {
      downSince = now();
      log.warn({ reason }, 'rate limits: Redis cannot be reached; requests are counted in this process until it returns');
    }
  };
  const markUp = () => {
    unhealthy = false;
    if (downSince !== null) log.info('rate limits: Redis is back; requests are counted there again');
    downSince = null;
  };

  if (options.redisUrl) {
    redis = new Redis(options.redisUrl, {
      connectTimeout: 2000,
      commandTimeout: COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      // A command while disconnected fails at once instead of waiting in a queue for the reconnect.
      enableOfflineQueue: false,
      // Connected by `connected()`, when the app starts: services built without HTTP (the command line) open nothing.
      lazyConnect: true,
    }) as RedisWithIncrement;
    redis.defineCommand('rateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT });
    redis.on('error', (err: Error) => markDown(err.message));
    redis.on('close', () => markDown('connection closed'));
    redis.on('ready', markUp);
  }

  /** Whether a request may ask Redis now; when Redis is connected but failing, a ping (not the request) checks on it. */
  const redisUsable = (client: RedisWithIncrement): boolean => {
    if (client.status !== 'ready') {
      markDown(`connection ${client.status}`);
      return false;
    }
    if (!unhealthy) return true;
    if (!probing && now() >= probeAfter) {
      probing = true;
      client
        .ping()
        .then(markUp, () => (probeAfter = now() + PROBE_AFTER_MS))
        .finally(() => (probing = false));
    }
    return false;
  };

  async function increment(local: ReturnType<typeof createLocalCounter>, key: string, windowMs: number): Promise<Count> {
    if (redis && redisUsable(redis)) {
      try {
        const [current, ttl] = await redis.rateLimitIncrement(RATE_LIMIT_KEY_PREFIX + key, windowMs);
        return { current, ttl };
      } catch (err) {
        unhealthy = true;
        probeAfter = now() + PROBE_AFTER_MS;
        markDown(err instanceof Error ? err.message : String(err));
      }
    }
    return local(key, windowMs);
  }

  /** A store of @fastify/rate-limit: each limit (`createRateLimit`) gets a child with its own local counters. */
  class Store implements FastifyRateLimitStore {
    private readonly local = createLocalCounter(now);
    incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number): void {
      increment(this.local, key, timeWindow).then(
        (count) => callback(null, count),
        (err: Error) => callback(err),
      );
    }
    child(): FastifyRateLimitStore {
      return new Store();
    }
  }

  return {
    Store,
    /**
     * Waits (at start, at most `timeoutMs`) for the first connection to Redis, so the first requests count
     * there; a Redis that refuses or does not answer leaves the counters in this process until it does.
     */
    async connected(timeoutMs = 1_500): Promise<void> {
      const client = redis;
      if (!client || client.status === 'ready') return;
      await new Promise<void>((resolve) => {
        if (client.status === 'wait') client.connect().catch(() => undefined);
        const done = () => {
          clearTimeout(timer);
          client.off('ready', done).off('error', done).off('end', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        client.once('ready', done).once('error', done).once('end', done);
      });
      // Read again: the wait changed it (the narrowing above does not know).
      const status = client.status as string;
      if (status !== 'ready') markDown(`connection ${status}`);
    },
    state(): RateLimitCountersState {
      if (!redis) return { store: 'memory', redisDownSince: null };
      if (redis.status === 'ready' && !unhealthy) return { store: 'redis', redisDownSince: null };
      return { store: 'memory_fallback', redisDownSince: new Date(downSince ?? now()) };
    },
    async close(): Promise<void> {
      if (!redis) return;
      const client = redis;
      redis = undefined;
      client.removeAllListeners();
      client.on('error', () => undefined);
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

export type RateLimitCounters = ReturnType<typeof createRateLimitCounters>;
