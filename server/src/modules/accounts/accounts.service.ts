import type { AdminCreateAccountBody } from '../../../../shared/accounts.js';
import type { UserProfile } from '../users/index.js';
import { createAccountLists, findAccount } from './account-lists.js';
import type { AccountsServiceDeps } from './accounts-deps.js';
import { claimPlan, createCustomAccount } from './create-account.js';
import { deleteAccount } from './delete-account.js';

export { USAGE_CACHE_SECONDS } from './account-usage.js';
export type { AccountsServiceDeps } from './accounts-deps.js';

/**
 * The customer's accounts: each use case is a function of its own (account-lists.ts, create-account.ts,
 * delete-account.ts) taking the dependencies first; this binds them once for the routes and the other modules.
 */
export function createAccountsService(deps: AccountsServiceDeps) {
  const lists = createAccountLists(deps);
  return {
    listAccountsJson: lists.listAccountsJson,
    listStoredAccounts: lists.listStoredAccounts,
    findAccount: (userId: string, id: string) => findAccount(deps, userId, id),
    claimPlan: (user: UserProfile, planId: string) => claimPlan(deps, user, planId),
    createCustomAccount: (admin: UserProfile, body: AdminCreateAccountBody) => createCustomAccount(deps, admin, body),
    deleteAccount: (user: UserProfile, id: string, opts?: { evenSuspended?: boolean }) => deleteAccount(deps, user, id, opts),
    listLogs: (limit: number) => deps.accounts.listLogs(limit),
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
