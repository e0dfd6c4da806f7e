import type { PanelConnection, PanelDriver, PanelService } from './panel-driver.js';
import { detailOf, expectJsonObject, failureFor } from './panel-http.js';
import { ALL_INBOUNDS, toAccount, USER_NOT_FOUND, userPath } from './marzban-mapping.js';
import { createUser, readInbounds, readUser, setUserInbounds, update } from './marzban-users.js';
import { PanelSession } from './panel-session.js';

export { ALL_INBOUNDS } from './marzban-mapping.js';

/**
 * Marzban through an admin's login (its token from `/api/admin/token`): users are addressed by username,
 * `serviceId` is an inbound tag or ALL_INBOUNDS. The multi-step requests are in marzban-users.ts, the mapping
 * in marzban-mapping.ts.
 */
export function createMarzbanDriver(connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  const session = new PanelSession({
    baseUrl: connection.url,
    tokenPath: '/api/admin/token',
    username: connection.username,
    password: connection.password,
    ...options,
  });

  return {
    kind: 'marzban',

    async testConnection() {
      await session.login();
      const response = await session.request('/api/admin', { method: 'GET' });
      if (response.status !== 200) throw failureFor(response, 'Checking the admin account');
    },

    async listServices(): Promise<PanelService[]> {
      const inbounds = await readInbounds(session);
      const services = Object.values(inbounds)
        .flat()
        .map((inbound) => ({ id: inbound.tag, name: `${inbound.tag} (${inbound.protocol})` }));
      return [{ id: ALL_INBOUNDS, name: 'All inbounds' }, ...services];
    },

    createAccount: (input) => createUser(session, input.serviceId ?? connection.serviceId, input),

    async listAccounts({ page, size }) {
      const limit = Math.min(size, 100);
      const query = new URLSearchParams({ offset: String((page - 1) * limit), limit: String(limit) });
      const response = await session.request(`/api/users?${query.toString()}`, { method: 'GET' });
      if (response.status !== 200) throw failureFor(response, 'Listing users');
      const body = expectJsonObject(response, 'Listing users');
      const users = Array.isArray(body.users) ? (body.users as unknown[]) : [];
      return { accounts: users.map((user) => toAccount(session, user)), total: Number(body.total ?? users.length) };
    },

    async getAccount(username, options = {}) {
      const user = await readUser(session, username);
      return user ? toAccount(session, user, options.withLinks) : null;
    },

    async extendAccount(username, change) {
      const body: Record<string, unknown> = {};
      if (change.expiresAt !== undefined) body.expire = change.expiresAt ? Math.floor(change.expiresAt.getTime() / 1000) : 0;
      if (change.dataLimitBytes !== undefined) body.data_limit = change.dataLimitBytes ?? 0;
      return update(session, username, body, 'Updating the user');
    },

    setServices: (username, serviceId) => setUserInbounds(session, username, serviceId),

    async setEnabled(username, enabled) {
      return update(session, username, { status: enabled ? 'active' : 'disabled' }, enabled ? 'Enabling the user' : 'Disabling the user');
    },

    async resetUsage(username) {
      const response = await session.request(`${userPath(username)}/reset`, { method: 'POST' });
      if (response.status !== 200) throw failureFor(response, 'Resetting the traffic');
      return toAccount(session, expectJsonObject(response, 'Resetting the traffic'));
    },

    async deleteAccount(username) {
      const response = await session.request(userPath(username), { method: 'DELETE' });
      if (response.status === 200) return { alreadyGone: false };
      if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return { alreadyGone: true };
      throw failureFor(response, 'Failed to delete user from master server');
    },
  };
}
