import type { WithBilling } from '../billing/index.js';
import { defineModule, route, type Provided } from '../module.js';
import type { telegramModule } from '../telegram/index.js';
import type { authModule } from '../auth/index.js';
import { customerPageRoutes } from './customer-page.routes.js';
import { createUserPageRepo } from './user-page.repo.js';
import { createUserPageService } from './user-page.service.js';

/**
 * The admin's page of one customer: their profile, accounts, subscriptions, payments, sessions and audit trail in
 * one answer (their Telegram too), and signing them out everywhere. It reads what the modules before it keep, so it is
 * built after billing and the Telegram bot.
 */
export const customerPageModule = defineModule({
  name: 'customer-page',
  build({
    db,
    audit,
    clock,
    usersRepo,
    sessions,
    accounts,
    billing,
    refunds,
    telegramChats,
    auth,
  }: WithBilling & Provided<typeof telegramModule> & Provided<typeof authModule>) {
    return {
      userPage: createUserPageService({
        users: usersRepo,
        repo: createUserPageRepo(db),
        listAccounts: (userId) => accounts.listStoredAccounts(userId),
        listSubscriptions: (user) => billing.listSubscriptions(user),
        listTransactions: (userId, limit) => refunds.listTransactions({ userId, limit }),
        revokeUserSessions: (userId, reason, now) => sessions.revokeUserSessions(userId, reason, now),
        telegramOf: async (userId) => {
          const chat = await telegramChats.findByUser(userId);
          return chat ? { id: chat.telegramId, username: chat.username, firstName: chat.firstName, blockedAt: chat.blockedAt?.toISOString() ?? null } : null;
        },
        sendSignInCode: (email, meta, locale) => auth.requestCode(email, meta, locale),
        audit,
        clock,
      }),
    };
  },
  routes: ({ userPage }) => [route(customerPageRoutes, { userPage })],
});
