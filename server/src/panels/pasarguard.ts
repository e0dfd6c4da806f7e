import { PanelError, type PanelConnection, type PanelDriver, type PanelService } from './panel-driver.js';
import { detailOf, expectJsonObject } from './panel-http.js';
import { checkAdminMayProvision } from './pasarguard-admin.js';
import { groupProblem, readGroups, requireGroupIds } from './pasarguard-groups.js';
import { expireField, failure, toAccount, USER_NOT_FOUND, userPath } from './pasarguard-mapping.js';
import { createUser, fetchLinks, readUser, setUserGroups, update, type PasarguardPanel } from './pasarguard-users.js';
import { PanelSession } from './panel-session.js';

export { pasarguardSubscriptionFormatUrl } from './pasarguard-mapping.js';

/**
 * PasarGuard through an admin's login (its token from `/api/admin/token`): users are addressed by username,
 * `serviceId` is one or more group ids. The multi-step requests are in pasarguard-users.ts, the mapping in
 * pasarguard-mapping.ts.
 */
export function createPasarguardDriver(connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  const session = new PanelSession({
    baseUrl: connection.url,
    tokenPath: '/api/admin/token',
    username: connection.username,
    password: connection.password,
    ...options,
  });
  const panel: PasarguardPanel = { connection, session, timeoutMs: options.timeoutMs };

  return {
    kind: 'pasarguard',

    async testConnection() {
      await session.login();
      const response = await session.request('/api/admin', { method: 'GET' });
      if (response.status !== 200) throw failure(response, 'Checking the admin account');
      checkAdminMayProvision(expectJsonObject(response, 'Checking the admin account'));
      const ids = connection.serviceId.trim() === '' ? [] : requireGroupIds(connection.serviceId);
      if (ids.length === 0) return;
      const groups = await readGroups(session);
      if (!groups)
        throw new PanelError('not_permitted', "this panel admin may not read groups, so the server's groups cannot be checked; grant groups.read_simple");
      const problem = groupProblem(groups, ids);
      if (problem) throw new PanelError('rejected', problem);
    },

    async listServices(): Promise<PanelService[]> {
      const groups = await readGroups(session);
      if (!groups) throw new PanelError('not_permitted', 'This panel admin may not read groups; grant groups.read_simple');
      return groups.map((group) => ({ id: String(group.id), name: group.disabled ? `${group.name} (disabled)` : group.name }));
    },

    createAccount: (input) => createUser(panel, input),

    async listAccounts({ page, size }) {
      const limit = Math.min(size, 100);
      // load_sub: without it the list carries an empty subscription_url. sort: a stable page order.
      const query = new URLSearchParams({ offset: String((page - 1) * limit), limit: String(limit), sort: 'username', load_sub: 'true' });
      const response = await session.request(`/api/users?${query.toString()}`, { method: 'GET' });
      if (response.status !== 200) throw failure(response, 'Listing users');
      const body = expectJsonObject(response, 'Listing users');
      const users = Array.isArray(body.users) ? (body.users as unknown[]) : [];
      return { accounts: users.map((user) => toAccount(session, user)), total: Number(body.total ?? users.length) };
    },

    async getAccount(username, options = {}) {
      const user = await readUser(panel, username);
      if (!user) return null;
      const account = toAccount(session, user);
      return options.withLinks ? { ...account, links: await fetchLinks(panel, account.subscriptionUrl) } : account;
    },

    async extendAccount(username, change) {
      // Only the fields sent change; a later expire makes an expired user active, a higher data_limit a
      // limited one (app/db/crud/user.py modify_user). 0 = never / unlimited.
      const body: Record<string, unknown> = {};
      if (change.expiresAt !== undefined) body.expire = expireField(change.expiresAt);
      if (change.dataLimitBytes !== undefined) body.data_limit = change.dataLimitBytes ?? 0;
      return update(panel, userPath(username), body, 'Updating the user');
    },

    setServices: (username, serviceId) => setUserGroups(panel, username, serviceId),

    async setEnabled(username, enabled) {
      // The toggle route recomputes the status when enabling (expired / limited / active), unlike a PUT
      // of `status: active`, and answers 200 whatever the user's state was.
      return update(panel, `${userPath(username)}/disabled`, { disabled: !enabled }, enabled ? 'Enabling the user' : 'Disabling the user');
    },

    async resetUsage(username) {
      const response = await session.request(`${userPath(username)}/reset`, { method: 'POST' });
      if (response.status !== 200) throw failure(response, 'Resetting the traffic');
      return toAccount(session, expectJsonObject(response, 'Resetting the traffic'));
    },

    async deleteAccount(username) {
      const response = await session.request(userPath(username), { method: 'DELETE' });
      if (response.status === 204 || response.status === 200) return { alreadyGone: false };
      if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return { alreadyGone: true };
      throw failure(response, 'Failed to delete user from master server');
    },
  };
}
