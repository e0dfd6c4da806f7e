import { ACCOUNT_MESSAGES } from '../../../../shared/accounts.js';
import { AppError, notFound } from '../../errors.js';
import { PanelError } from '../../panels/panel-driver.js';
import type { UserProfile } from '../users/index.js';
import type { AccountsServiceDeps } from './accounts-deps.js';

/** A customer deleting one of their accounts: its open renewals closed, its panel user deleted, then the row. */

/**
 * Deletes the panel user first (already gone is fine), then the row. `evenSuspended`: the customer is deleting
 * themselves (my-data), which has checked already that no payment of theirs is open.
 */
export async function deleteAccount(deps: AccountsServiceDeps, user: UserProfile, id: string, opts: { evenSuspended?: boolean } = {}): Promise<void> {
  const { accounts, clock } = deps;
  const account = await accounts.findForUser(id, user.id);
  if (!account) throw notFound('Account or master server not found');
  if (account.status === 'suspended' && !opts.evenSuspended)
    throw new AppError(409, 'account_suspended', 'This account is waiting for its payment and cannot be deleted yet.');
  await deps.closeOpenCheckouts(id);
  const server = account.masterServerId ? await deps.servers.findServerRecord(account.masterServerId) : undefined;
  if (server) {
    try {
      const { alreadyGone } = await deps.servers.driverFor(server).deleteAccount(account.username);
      await accounts.insertLog({
        accountId: id,
        userId: user.id,
        step: 'delete_panel_user',
        status: 'success',
        details: { serverId: server.id, username: account.username, alreadyGone },
        now: clock(),
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await accounts.insertLog({
        accountId: id,
        userId: user.id,
        step: 'delete_panel_user',
        status: 'failure',
        details: { serverId: server.id, username: account.username, message },
        now: clock(),
      });
      const unreachable = err instanceof PanelError && err.retryable;
      throw new AppError(
        unreachable ? 503 : 502,
        'panel_error',
        unreachable ? ACCOUNT_MESSAGES.serviceUnavailable : `Failed to delete user from master server: ${message}`,
      );
    }
  }
  await accounts.remove(id);
  await accounts.insertLog({
    accountId: id,
    userId: user.id,
    step: 'delete_account',
    status: 'success',
    details: { username: account.username },
    now: clock(),
  });
}
