import { PanelError, type PanelConnection, type PanelDriver, type PanelService } from './panel-driver.js';
import { detailOf, expectJsonObject, failureFor } from './panel-http.js';
import { checkAdminMayProvision } from './marzneshin-admin.js';
import { expiryFields, NOT_ALLOWED, toAccount, USER_NOT_FOUND, usersPath } from './marzneshin-mapping.js';
import { createUser, fetchLinks, findViaList, readServices, readUser, setUserServices, type MarzneshinPanel } from './marzneshin-users.js';
import { PanelSession } from './panel-session.js';

/**
 * Marzneshin through an admin's login (its token from `/api/admins/token`): users are addressed by username,
 * `serviceId` is a service id. The multi-step requests are in marzneshin-users.ts, the mapping in
 * marzneshin-mapping.ts.
 */
export function createMarzneshinDriver(connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  const session = new PanelSession({
    baseUrl: connection.url,
    tokenPath: '/api/admins/token',
    username: connection.username,
    password: connection.password,
    ...options,
  });
  const panel: MarzneshinPanel = { connection, session, timeoutMs: options.timeoutMs };

  return {
    kind: 'marzneshin',

    async testConnection() {
      await session.login();
      const response = await session.request('/api/admins/current', { method: 'GET' });
      if (response.status !== 200) throw failureFor(response, 'Checking the admin account');
      checkAdminMayProvision(expectJsonObject(response, 'Checking the admin account'), connection.serviceId);
    },

    listServices: (): Promise<PanelService[]> => readServices(panel),

    createAccount: (input) => createUser(panel, input),

    async listAccounts({ page, size }) {
      const query = new URLSearchParams({ page: String(page), size: String(Math.min(size, 100)) });
      const response = await session.request(`/api/users?${query.toString()}`, { method: 'GET' });
      if (response.status !== 200) throw failureFor(response, 'Listing users');
      const body = expectJsonObject(response, 'Listing users');
      const items = Array.isArray(body.items) ? (body.items as unknown[]) : [];
      return { accounts: items.map((item) => toAccount(session, item)), total: Number(body.total ?? items.length) };
    },

    async getAccount(username, options = {}) {
      const user = await readUser(panel, username);
      if (!user) return null;
      const account = toAccount(session, user);
      return options.withLinks ? { ...account, links: await fetchLinks(panel, account.subscriptionUrl) } : account;
    },

    async extendAccount(username, change) {
      // The body must carry the username and either the expire strategy with its fields or
      // "usage_duration": null, or the panel answers 500 (an upstream bug, panels.md).
      const body: Record<string, unknown> = { username, ...(change.expiresAt !== undefined ? expiryFields(change.expiresAt) : { usage_duration: null }) };
      if (change.dataLimitBytes !== undefined) body.data_limit = change.dataLimitBytes ?? 0;
      const response = await session.request(usersPath(username), { method: 'PUT', json: body });
      if (response.status !== 200) throw failureFor(response, 'Updating the user');
      return toAccount(session, expectJsonObject(response, 'Updating the user'));
    },

    setServices: (username, serviceId) => setUserServices(panel, username, serviceId),

    async setEnabled(username, enabled) {
      const response = await session.request(`${usersPath(username)}/${enabled ? 'enable' : 'disable'}`, { method: 'POST' });
      // 409 "User is already enabled" / "User is not enabled": it already is as asked.
      if (response.status !== 200 && response.status !== 409) throw failureFor(response, enabled ? 'Enabling the user' : 'Disabling the user');
      const user = await readUser(panel, username);
      if (!user) throw new PanelError('rejected', `The user ${username} does not exist on the panel`, 404);
      return toAccount(session, user);
    },

    async resetUsage(username) {
      const response = await session.request(`${usersPath(username)}/reset`, { method: 'POST' });
      if (response.status !== 200) throw failureFor(response, 'Resetting the traffic');
      return toAccount(session, expectJsonObject(response, 'Resetting the traffic'));
    },

    async deleteAccount(username) {
      const response = await session.request(usersPath(username), { method: 'DELETE' });
      if (response.status === 200) return { alreadyGone: false };
      if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return { alreadyGone: true };
      if (response.status === 403 && detailOf(response) === NOT_ALLOWED && (await findViaList(panel, username)) === null) return { alreadyGone: true };
      throw failureFor(response, 'Failed to delete user from master server');
    },
  };
}
