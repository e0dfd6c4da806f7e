import { PanelError, type AccountStatus, type PanelAccount, type PanelConnection, type PanelDriver, type PanelService } from './panel-driver.js';
import { detailOf, expectJsonObject, failureFor, type PanelResponse } from './panel-http.js';
import { adoptIfOurs } from './adopt.js';
import { PanelSession } from './panel-session.js';
import { fromUnix, isPlaceholderLink } from './normalize.js';

interface MarzbanUser {
  username: string;
  status: string;
  used_traffic: number;
  data_limit: number | null;
  expire: number | null;
  subscription_url: string;
  links?: string[];
  note: string | null;
}

type Inbounds = Record<string, Array<{ tag: string; protocol: string }>>;

const USER_NOT_FOUND = 'User not found';
const NOT_ALLOWED = "You're not allowed";
const STATUSES: readonly AccountStatus[] = ['active', 'disabled', 'limited', 'expired', 'on_hold'];
/** `serviceId` meaning every inbound of the panel. */
export const ALL_INBOUNDS = 'all';

export function createMarzbanDriver(connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  const session = new PanelSession({ baseUrl: connection.url, tokenPath: '/api/admin/token', username: connection.username, password: connection.password, ...options });
  const userPath = (username: string) => `/api/user/${encodeURIComponent(username)}`;

  function toAccount(raw: unknown, withLinks = false): PanelAccount {
    const user = raw as MarzbanUser;
    if (typeof user?.username !== 'string' || typeof user.subscription_url !== 'string') {
      throw new PanelError('invalid_response', 'The panel answered with something that is not a user');
    }
    return {
      username: user.username,
      status: STATUSES.includes(user.status as AccountStatus) ? (user.status as AccountStatus) : 'disabled',
      usedTrafficBytes: Number(user.used_traffic ?? 0),
      dataLimitBytes: user.data_limit ? Number(user.data_limit) : null,
      expiresAt: fromUnix(user.expire),
      subscriptionUrl: session.url(user.subscription_url),
      links: withLinks ? (user.links ?? []).filter((link) => !isPlaceholderLink(link)) : null,
      note: user.note ?? null,
    };
  }

  async function readInbounds(): Promise<Inbounds> {
    const response = await session.request('/api/inbounds', { method: 'GET' });
    if (response.status !== 200) throw failureFor(response, 'Listing inbounds');
    return expectJsonObject(response, 'Listing inbounds') as Inbounds;
  }

  /** The `inbounds` and `proxies` a new user needs: both, always (panels.md). */
  async function protocolsFor(serviceId: string) {
    const all = await readInbounds();
    const inbounds: Record<string, string[]> = {};
    for (const [protocol, list] of Object.entries(all)) {
      const tags = list.filter((inbound) => serviceId === ALL_INBOUNDS || inbound.tag === serviceId).map((inbound) => inbound.tag);
      if (tags.length > 0) inbounds[protocol] = tags;
    }
    if (Object.keys(inbounds).length === 0) throw new PanelError('rejected', `The panel has no inbound ${serviceId}; check the server's service ID`);
    const proxies = Object.fromEntries(Object.keys(inbounds).map((protocol) => [protocol, {}]));
    return { inbounds, proxies };
  }

  async function readUser(username: string): Promise<unknown | null> {
    const response = await session.request(userPath(username), { method: 'GET' });
    if (response.status === 200) return expectJsonObject(response, 'Reading the user');
    if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return null;
    throw failureFor(response, 'Reading the user');
  }

  /**
   * For adoptIfOurs after a 409: a non-sudo admin reading a user another admin owns gets 403 "You're not
   * allowed" — the name is taken, and not by us (no marker to compare).
   */
  async function readForAdoption(username: string): Promise<unknown | null> {
    const response = await session.request(userPath(username), { method: 'GET' });
    if (response.status === 403 && detailOf(response) === NOT_ALLOWED) return { username, note: null };
    if (response.status === 200) return expectJsonObject(response, 'Reading the user');
    if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return null;
    throw failureFor(response, 'Reading the user');
  }

  async function update(username: string, body: Record<string, unknown>, action: string): Promise<PanelAccount> {
    const response = await session.request(userPath(username), { method: 'PUT', json: body });
    if (response.status !== 200) throw failureFor(response, action);
    return toAccount(expectJsonObject(response, action));
  }

  return {
    kind: 'marzban',

    async testConnection() {
      await session.login();
      const response = await session.request('/api/admin', { method: 'GET' });
      if (response.status !== 200) throw failureFor(response, 'Checking the admin account');
    },

    async listServices(): Promise<PanelService[]> {
      const inbounds = await readInbounds();
      const services = Object.values(inbounds).flat().map((inbound) => ({ id: inbound.tag, name: `${inbound.tag} (${inbound.protocol})` }));
      return [{ id: ALL_INBOUNDS, name: 'All inbounds' }, ...services];
    },

    async createAccount(input) {
      const body = {
        username: input.username,
        ...(await protocolsFor(connection.serviceId)),
        expire: input.expiresAt ? Math.floor(input.expiresAt.getTime() / 1000) : 0,
        data_limit: input.dataLimitBytes ?? 0,
        data_limit_reset_strategy: 'no_reset',
        status: 'active',
        note: input.note,
      };
      let response: PanelResponse;
      try {
        response = await session.request('/api/user', { method: 'POST', json: body });
      } catch (err) {
        if (err instanceof PanelError && err.kind === 'timeout') return adoptIfOurs(input, err, readForAdoption, (user) => toAccount(user));
        throw err;
      }
      if (response.status === 200) return toAccount(expectJsonObject(response, 'Creating the user'), true);
      if (response.status === 409 || response.status >= 500) return adoptIfOurs(input, response, readForAdoption, (user) => toAccount(user));
      throw failureFor(response, 'Creating the user');
    },

    async listAccounts({ page, size }) {
      const limit = Math.min(size, 100);
      const query = new URLSearchParams({ offset: String((page - 1) * limit), limit: String(limit) });
      const response = await session.request(`/api/users?${query.toString()}`, { method: 'GET' });
      if (response.status !== 200) throw failureFor(response, 'Listing users');
      const body = expectJsonObject(response, 'Listing users');
      const users = Array.isArray(body.users) ? (body.users as unknown[]) : [];
      return { accounts: users.map((user) => toAccount(user)), total: Number(body.total ?? users.length) };
    },

    async getAccount(username, options = {}) {
      const user = await readUser(username);
      return user ? toAccount(user, options.withLinks) : null;
    },

    async extendAccount(username, change) {
      const body: Record<string, unknown> = {};
      if (change.expiresAt !== undefined) body.expire = change.expiresAt ? Math.floor(change.expiresAt.getTime() / 1000) : 0;
      if (change.dataLimitBytes !== undefined) body.data_limit = change.dataLimitBytes ?? 0;
      return update(username, body, 'Updating the user');
    },

    async setEnabled(username, enabled) {
      return update(username, { status: enabled ? 'active' : 'disabled' }, enabled ? 'Enabling the user' : 'Disabling the user');
    },

    async resetUsage(username) {
      const response = await session.request(`${userPath(username)}/reset`, { method: 'POST' });
      if (response.status !== 200) throw failureFor(response, 'Resetting the traffic');
      return toAccount(expectJsonObject(response, 'Resetting the traffic'));
    },

    async deleteAccount(username) {
      const response = await session.request(userPath(username), { method: 'DELETE' });
      if (response.status === 200) return { alreadyGone: false };
      if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return { alreadyGone: true };
      throw failureFor(response, 'Failed to delete user from master server');
    },
  };
}
