import type { FastifyRequest } from 'fastify';
import type { Role, UpdateMeBody } from '../../../../shared/auth.js';
import { EmailSchema } from '../../../../shared/auth.js';
import type { AdminUser, AdminUsersQuery, UpdateUserBody } from '../../../../shared/users.js';
import { AppError, notFound } from '../../errors.js';
import type { CommitToken } from '../../db/commit-token.js';
import type { Clock } from '../../lib/clock.js';
import { keptUntilCommit } from '../../lib/kept-until-commit.js';
import type { AuditRepo } from '../audit/index.js';
import type { UserProfile, UsersRepo } from './users.repo.js';
import { isoTime } from '../../lib/iso-time.js';
import { KeptJson } from '../../lib/kept-json.js';

export const toAdminUser = (user: UserProfile): AdminUser => ({
  id: user.id,
  email: user.email,
  role: user.role,
  trialUsed: user.trialUsed,
  createdAt: isoTime(user.createdAt),
});

export interface Actor {
  id: string | null;
  /** Null for a customer who came through the Telegram bot and has no address. */
  email: string | null;
  ip?: string | null;
}

/** The signed-in caller of an authenticated route, as the audit log records them. */
export const actorOf = (request: FastifyRequest): Actor => ({ id: request.auth!.user.id, email: request.auth!.user.email, ip: request.ip });

/** Pages of the users list kept until the next commit (see createUsersService). */
const PAGES_KEPT = 64;

/**
 * With `commitToken`, each page of the users list is kept until anything is committed to the database
 * (kept-until-commit.ts): paging back and forth, or several admins on one page, reads it once per change.
 */
export function createUsersService(deps: { users: UsersRepo; audit: AuditRepo; clock: Clock; commitToken?: CommitToken }) {
  const { users, audit, clock } = deps;

  async function readPage(query: AdminUsersQuery): Promise<KeptJson> {
    const search = !query.q ? undefined : EmailSchema.safeParse(query.q).success ? { exact: query.q } : { prefix: query.q };
    const page = await users.listPageJson({ search, role: query.role, active: query.active, pastDue: query.pastDue, limit: query.limit, after: query.after });
    // An empty page after a cursor is the end of the list, or a cursor naming no user: only then look which.
    if (query.after && page === '' && !(await users.findById(query.after))) {
      throw new AppError(400, 'invalid_cursor', 'This page no longer exists: the user it continued from is gone. Start again from the first page.');
    }
    return new KeptJson(`[${page}]`);
  }
  const keptPage = deps.commitToken
    ? keptUntilCommit(deps.commitToken, (key: string) => readPage(JSON.parse(key) as AdminUsersQuery), { maxKeys: PAGES_KEPT })
    : undefined;

  return {
    /** One page of the users list (see AdminUsersQuery), as the JSON of an AdminUser[]; an `after` that names no user is a 400. */
    async listUsers(query: AdminUsersQuery): Promise<KeptJson> {
      if (!keptPage) return readPage(query);
      const { q, role, active, pastDue, limit, after } = query;
      return keptPage(JSON.stringify({ q, role, active, pastDue, limit, after }));
    },

    /** The signed-in user's own settings (their language). */
    async updateOwnSettings(user: UserProfile, changes: UpdateMeBody): Promise<UserProfile> {
      return (await deps.users.update(user.id, { locale: changes.locale }, deps.clock())) ?? user;
    },

    async updateUser(actor: Actor, id: string, changes: UpdateUserBody): Promise<AdminUser> {
      const existing = await users.findById(id);
      if (!existing) throw notFound('User not found.');
      if (actor.id === id && changes.role === 'user') {
        throw new AppError(409, 'cannot_demote_self', 'You cannot remove your own admin role. Ask another admin.');
      }
      const now = clock();
      const updated = await users.update(id, changes, now);
      if (!updated) throw notFound('User not found.');
      await audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'user.update',
        targetType: 'user',
        targetId: id,
        details: { ...changes, previousRole: existing.role },
        ip: actor.ip ?? null,
        now,
      });
      return toAdminUser(updated);
    },

    /** The admin command line: grant or revoke the admin role, creating the profile if needed. */
    async setRoleByEmail(actor: Actor, email: string, role: Role): Promise<{ user: AdminUser; changed: boolean }> {
      const now = clock();
      const existing = (await users.findByEmail(email)) ?? (await users.findOrCreateByEmail(email, 'user', now));
      const changed = existing.role !== role;
      const user = changed ? await users.update(existing.id, { role }, now) : existing;
      if (!user) throw notFound('User not found.');
      await audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: `user.role.${role}`,
        targetType: 'user',
        targetId: user.id,
        details: { changed },
        now,
      });
      return { user: toAdminUser(user), changed };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
