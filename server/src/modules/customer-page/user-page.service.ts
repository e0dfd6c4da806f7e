import type { AdminTransaction, Subscription } from '../../../../shared/billing.js';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { AdminUserPage, AdminUserTelegram } from '../../../../shared/users.js';
import type { Locale } from '../../../../shared/locales.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/index.js';
import type { RequestMeta, RevokeReason } from '../auth/index.js';
import { toAdminUser, type Actor, type UserProfile, type UsersRepo } from '../users/index.js';
import type { UserPageRepo } from './user-page.repo.js';

const NEWEST = 50;

/** The admin's page of one customer: everything about them in one answer, and signing them out everywhere. */
export function createUserPageService(deps: {
  users: UsersRepo;
  repo: UserPageRepo;
  listAccounts(userId: string): Promise<VpnAccount[]>;
  listSubscriptions(user: UserProfile): Promise<Subscription[]>;
  /** The user's newest `limit` transactions, as the admin sees them. */
  listTransactions(userId: string, limit: number): Promise<AdminTransaction[]>;
  revokeUserSessions(userId: string, reason: RevokeReason, now: Date): Promise<number>;
  /** The Telegram chat linked to the customer, if any. */
  telegramOf(userId: string): Promise<AdminUserTelegram | null>;
  /** Sends a sign-in code to an address, as the sign-in form does (its cooldown and limits included). */
  sendSignInCode(email: string, meta: RequestMeta, locale: Locale | undefined): Promise<void>;
  audit: AuditRepo;
  clock: Clock;
}) {
  async function load(id: string): Promise<UserProfile> {
    const user = await deps.users.findById(id);
    if (!user) throw notFound('User not found.');
    return user;
  }

  return {
    async getPage(id: string): Promise<AdminUserPage> {
      const user = await load(id);
      const [accounts, subscriptions, transactions, sessions, telegram] = await Promise.all([
        deps.listAccounts(user.id),
        deps.listSubscriptions(user),
        deps.listTransactions(user.id, NEWEST),
        deps.repo.listActiveSessions(user.id, deps.clock(), NEWEST),
        deps.telegramOf(user.id),
      ]);
      const accountIds = accounts.map((account) => account.id);
      const [entries, serverNames] = await Promise.all([deps.audit.list({ userId: user.id }, NEWEST), deps.repo.serverNamesOf(accountIds)]);
      const audit = entries.map(({ action, actorEmail, targetType, targetId, details, ip, createdAt }) => ({
        action,
        actorEmail,
        targetType,
        targetId,
        details,
        ip,
        createdAt,
      }));
      return {
        user: toAdminUser(user),
        accounts: accounts.map((account) => ({ ...account, serverInternalName: serverNames.get(account.id) ?? null })),
        subscriptions,
        transactions,
        audit,
        sessions,
        telegram,
      };
    },

    /**
     * Support's "send a sign-in code": a new code to the customer's own address (never shown to staff), in their
     * language, as if they had asked for it; 409 `no_email` for a customer who came through Telegram without one.
     */
    async sendSignInCode(actor: Actor, id: string, meta: RequestMeta): Promise<{ sent: true }> {
      const user = await load(id);
      if (!user.email) throw new AppError(409, 'no_email', 'This customer has no e-mail address to send a code to.');
      await deps.sendSignInCode(user.email, meta, user.locale ?? undefined);
      await deps.audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'user.sign_in_code_sent',
        targetType: 'user',
        targetId: user.id,
        ip: actor.ip ?? null,
        now: deps.clock(),
      });
      return { sent: true };
    },

    /** Ends every session of the user (on every instance at once, through the session cache). */
    async signOutEverywhere(actor: Actor, id: string): Promise<{ revoked: number }> {
      const user = await load(id);
      const now = deps.clock();
      const revoked = await deps.revokeUserSessions(user.id, 'admin', now);
      await deps.audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'user.sign_out_all',
        targetType: 'user',
        targetId: user.id,
        details: { revoked },
        ip: actor.ip ?? null,
        now,
      });
      return { revoked };
    },
  };
}

export type UserPageService = ReturnType<typeof createUserPageService>;
