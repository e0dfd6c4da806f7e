import type { WithBilling } from '../billing/index.js';
import { defineModule, route } from '../module.js';
import { createUserPageRepo } from './user-page.repo.js';
import { createUserPageService } from './user-page.service.js';
import { adminUsersRoutes, meRoutes } from './users.routes.js';
import { createUsersService } from './users.service.js';

/** Customers and admins: the caller's own profile, the admin's list, and the admin's page of one customer. */
export const usersModule = defineModule({
  name: 'users',
  build({ db, audit, clock, usersRepo, commitToken, sessions, accounts, billing, refunds }: WithBilling) {
    return {
      users: createUsersService({ users: usersRepo, audit, clock, commitToken }),
      userPage: createUserPageService({
        users: usersRepo,
        repo: createUserPageRepo(db),
        listAccounts: (userId) => accounts.listStoredAccounts(userId),
        listSubscriptions: (user) => billing.listSubscriptions(user),
        listTransactions: (userId, limit) => refunds.listTransactions({ userId, limit }),
        revokeUserSessions: (userId, reason, now) => sessions.revokeUserSessions(userId, reason, now),
        audit,
        clock,
      }),
    };
  },
  routes: ({ users, userPage }) => [route(meRoutes, { users }), route(adminUsersRoutes, { users, userPage })],
});
