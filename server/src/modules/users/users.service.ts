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
export function createUsersService(deps: {
  users: UsersRepo;
  audit: AuditRepo;
  clock: Clock;
  commitToken?: CommitToken;
  /** The user chose another language: what others keep of it (the card provider's customer) follows. */
  languageChanged?: (userId: string, now: Date) => Promise<void>;
}) {
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

  /** The one way a role changes: never your own, never the last owner away; recorded with before and after. */
  async function changeRole(actor: Actor, target: UserProfile, role: Role): Promise<UserProfile> {
    if (actor.id === target.id && target.role !== role) {
      throw new AppError(409, 'cannot_demote_self', 'You cannot change your own role. Ask another owner.');
    }
    const now = clock();
    const result = await users.setRole(target.id, role, now);
    if (!result) throw notFound('User not found.');
    if (result === 'last_owner') throw new AppError(409, 'last_owner', 'The store needs an owner: make someone else owner first.');
    if (result.before !== role) {
      await audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'user.role',
        targetType: 'user',
        targetId: target.id,
        details: { before: { role: result.before }, after: { role } },
        ip: actor.ip ?? null,
        now,
      });
    }
    return result.user;
  }

  return {
    /** One page of the users list (see AdminUsersQuery), as the JSON of an AdminUser[]; an `after` that names no user is a 400. */
    async listUsers(query: AdminUsersQuery): Promise<KeptJson> {
      if (!keptPage) return readPage(query);
      const { q, role, active, pastDue, limit, after } = query;
      return keptPage(JSON.stringify({ q, role, active, pastDue, limit, after }));
    },

    /** The signed-in user's own settings (their language). */
    async updateOwnSettings(user: UserProfile, changes: UpdateMeBody): Promise<UserProfile> {
      const now = deps.clock();
      const updated = (await deps.users.update(user.id, { locale: changes.locale }, now)) ?? user;
      if (changes.locale !== undefined && changes.locale !== user.locale) await deps.languageChanged?.(user.id, now);
      return updated;
    },

    async updateUser(actor: Actor, id: string, changes: UpdateUserBody): Promise<AdminUser> {
      const existing = await users.findById(id);
      if (!existing) throw notFound('User not found.');
      let updated: UserProfile | undefined = existing;
      if (changes.role !== undefined) updated = await changeRole(actor, existing, changes.role);
      if (changes.trialUsed !== undefined) {
        const now = clock();
        updated = await users.update(id, { trialUsed: changes.trialUsed }, now);
        if (!updated) throw notFound('User not found.');
        await audit.record({
          actorId: actor.id,
          actorEmail: actor.email,
          action: 'user.update',
          targetType: 'user',
          targetId: id,
          details: { before: { trialUsed: existing.trialUsed }, after: { trialUsed: changes.trialUsed } },
          ip: actor.ip ?? null,
          now,
        });
      }
      return toAdminUser(updated);
    },

    /** Every staff member with their role (the owner's Staff section). */
    async listStaff(): Promise<AdminUser[]> {
      return (await users.listStaff()).map(toAdminUser);
    },

    /**
     * Gives the person with this address a role (the Staff section and the command line), creating their profile
     * if they have never signed in: they open the admin at their first sign-in. `changed` is false when it was theirs.
     */
    async setRoleByEmail(actor: Actor, email: string, role: Role): Promise<{ user: AdminUser; changed: boolean }> {
      const existing = (await users.findByEmail(email)) ?? (await users.findOrCreateByEmail(email, 'user', clock()));
      const user = await changeRole(actor, existing, role);
      return { user: toAdminUser(user), changed: existing.role !== role };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
