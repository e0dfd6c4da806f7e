import type { Broadcast } from '../../lib/broadcast.js';
import { LruMap } from '../../lib/lru-map.js';
import type { UsersRepo } from '../users/index.js';
import type { SessionsRepo, SessionWithUser } from './sessions.repo.js';

/** Bounds a change the broadcast did not carry (the admin CLI, a lost message). */
export const SESSION_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 20_000;
const CHANNEL = 'sessions-changed';

interface Entry {
  expiresAt: number;
  /** Known once loaded. */
  userId?: string;
  value: Promise<SessionWithUser | undefined>;
}

/** Who to forget: a message on the broadcast, e.g. `s:<session id>` or `u:<user id>`. */
type Forget = `s:${string}` | `u:${string}`;

/**
 * The session lookup every authenticated request makes, kept in memory for a few seconds. A
 * sign-out, a revocation, a role change or a trial claim forgets the session or the user here at
 * once and, through the broadcast, on every other instance. While other instances' messages could be
 * missed (the broadcast's Redis subscription or PostgreSQL LISTEN connection is down), or with
 * `enabled` false, every request reads the database, so a sign-out is never served from a stale entry.
 */
export function createSessionCache(deps: {
  load: SessionsRepo['findSessionWithUser'];
  broadcast: Broadcast;
  /** On unless told otherwise. */
  enabled?: boolean;
  now?: () => number;
  ttlMs?: number;
}) {
  const now = deps.now ?? Date.now;
  const ttlMs = deps.ttlMs ?? SESSION_CACHE_TTL_MS;
  // At most MAX_ENTRIES sessions, the least recently used forgotten first.
  const entries = new LruMap<string, Entry>(MAX_ENTRIES);

  const forgetUser = (userId: string) => {
    // An entry still loading may hold the row from before the change: it goes too.
    const forgotten = [...entries.entries()].filter(([, entry]) => entry.userId === undefined || entry.userId === userId);
    for (const [sessionId] of forgotten) entries.delete(sessionId);
  };
  const apply = (message: string) => {
    const id = message.slice(2);
    if (message.startsWith('s:')) entries.delete(id);
    else if (message.startsWith('u:')) forgetUser(id);
  };
  deps.broadcast.subscribe(CHANNEL, apply);
  deps.broadcast.onResume(() => entries.clear());
  const publish = (message: Forget) => deps.broadcast.publish(CHANNEL, message);

  return {
    find(sessionId: string): Promise<SessionWithUser | undefined> {
      if (deps.enabled === false || !deps.broadcast.hearsOthers()) return deps.load(sessionId);
      const at = now();
      const hit = entries.get(sessionId);
      if (hit && at < hit.expiresAt) return hit.value;
      const value = deps.load(sessionId);
      const entry: Entry = { expiresAt: at + ttlMs, value };
      entries.set(sessionId, entry);
      value.then(
        (session) => {
          entry.userId = session?.user.id ?? '';
        },
        () => {
          if (entries.peek(sessionId) === entry) entries.delete(sessionId);
        },
      );
      return value;
    },
    forgetSession: (sessionId: string) => publish(`s:${sessionId}`),
    forgetUser: (userId: string) => publish(`u:${userId}`),
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;

/**
 * The sessions repository every part of the app uses: the lookup goes through the cache, and every
 * revocation forgets what it revoked (here and on the other instances).
 */
export function cachedSessions(repo: SessionsRepo, cache: SessionCache): SessionsRepo {
  return {
    ...repo,
    findSessionWithUser: (sessionId) => cache.find(sessionId),
    async revokeSession(sessionId, reason, now) {
      await repo.revokeSession(sessionId, reason, now);
      cache.forgetSession(sessionId);
    },
    async revokeUserSessions(userId, reason, now, keepSessionId) {
      const revoked = await repo.revokeUserSessions(userId, reason, now, keepSessionId);
      cache.forgetUser(userId);
      return revoked;
    },
  };
}

/** The users repository whose profile writes (role, trial used, an address added) forget the user's cached sessions. */
export function forgettingUsers(repo: UsersRepo, cache: SessionCache): UsersRepo {
  return {
    ...repo,
    async update(id, changes, now) {
      const updated = await repo.update(id, changes, now);
      cache.forgetUser(id);
      return updated;
    },
    async setEmail(id, email, now) {
      const updated = await repo.setEmail(id, email, now);
      cache.forgetUser(id);
      return updated;
    },
    async setRole(id, role, now) {
      const result = await repo.setRole(id, role, now);
      cache.forgetUser(id);
      return result;
    },
  };
}
