import { PanelError, type AccountStatus, type PanelAccount, type PanelConnection, type PanelDriver, type PanelService } from './panel-driver.js';
import { detailOf, expectJsonObject, failureFor, type PanelResponse } from './panel-http.js';
import { adoptIfOurs } from './adopt.js';
import { checkAdminMayProvision } from './marzneshin-admin.js';
import { fetchPanelSubscription } from './subscription-fetch.js';
import { subscriptionUrlsToTry } from './subscription-route.js';
import { PanelSession } from './panel-session.js';
import { isPlaceholderLink, parseNaiveUtc, splitLinks } from './normalize.js';

interface MarzneshinUser {
  username: string;
  enabled: boolean;
  expired: boolean;
  data_limit_reached: boolean;
  expire_strategy: string;
  expire_date: string | null;
  data_limit: number | null;
  used_traffic: number;
  subscription_url: string;
  service_ids: number[];
  note: string | null;
}

const USER_NOT_FOUND = 'User not found';
const NOT_ALLOWED = "You're not allowed";

/** Status order from panels.md: disabled, expired, limited, on hold, active. */
function statusOf(user: MarzneshinUser): AccountStatus {
  if (!user.enabled) return 'disabled';
  if (user.expired) return 'expired';
  if (user.data_limit_reached) return 'limited';
  if (user.expire_strategy === 'start_on_first_use') return 'on_hold';
  return 'active';
}

/** Marzneshin's expire fields for an expiry time (or none). */
const expiryFields = (expiresAt: Date | null) =>
  expiresAt ? { expire_strategy: 'fixed_date', expire_date: expiresAt.toISOString() } : { expire_strategy: 'never', expire_date: null };

export function createMarzneshinDriver(connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  const session = new PanelSession({ baseUrl: connection.url, tokenPath: '/api/admins/token', username: connection.username, password: connection.password, ...options });
  const usersPath = (username: string) => `/api/users/${encodeURIComponent(username)}`;

  function toAccount(raw: unknown, links: string[] | null = null): PanelAccount {
    const user = raw as MarzneshinUser;
    if (typeof user?.username !== 'string' || typeof user.subscription_url !== 'string') {
      throw new PanelError('invalid_response', 'The panel answered with something that is not a user');
    }
    return {
      username: user.username,
      status: statusOf(user),
      usedTrafficBytes: Number(user.used_traffic ?? 0),
      dataLimitBytes: user.data_limit ? Number(user.data_limit) : null,
      expiresAt: user.expire_strategy === 'fixed_date' ? parseNaiveUtc(user.expire_date) : null,
      subscriptionUrl: session.url(user.subscription_url),
      links,
      note: user.note ?? null,
    };
  }

  /** The `links` format, through the panel URL first as /sub does (the public prefix may not be reachable from here). */
  async function fetchLinks(subscriptionUrl: string): Promise<string[]> {
    const requests = subscriptionUrlsToTry('marzneshin', connection.url, subscriptionUrl)
      .map(({ url, via }) => ({ url: `${url.replace(/\/+$/, '')}/links`, headers: {}, via }));
    const { response } = await fetchPanelSubscription(requests, { timeoutMs: options.timeoutMs, answered: (status) => status !== 404 && status < 500 });
    if (response.status !== 200) throw failureFor(response, 'Reading the configuration links');
    return splitLinks(response.text).filter((link) => !isPlaceholderLink(link));
  }

  /** A 403 "You're not allowed" hides whether the user exists: the exact-match list call tells. */
  async function findViaList(username: string): Promise<unknown | null> {
    const query = new URLSearchParams([['username', username], ['username', username], ['page', '1'], ['size', '10']]);
    const response = await session.request(`/api/users?${query.toString()}`, { method: 'GET' });
    if (response.status !== 200) throw failureFor(response, 'Listing users');
    const items = (expectJsonObject(response, 'Listing users').items ?? []) as Array<{ username?: string }>;
    return items.find((item) => item.username === username.toLowerCase()) ?? null;
  }

  async function readUser(username: string): Promise<unknown | null> {
    const response = await session.request(usersPath(username), { method: 'GET' });
    if (response.status === 200) return expectJsonObject(response, 'Reading the user');
    if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return null;
    if (response.status === 403 && detailOf(response) === NOT_ALLOWED) return findViaList(username);
    throw failureFor(response, 'Reading the user');
  }

  async function checkServiceKept(account: PanelAccount, raw: MarzneshinUser): Promise<PanelAccount> {
    if (raw.service_ids?.map(String).includes(connection.serviceId)) return account;
    // Marzneshin silently drops unknown service ids, and those a non-sudo admin may not assign: the
    // user would have no configuration at all.
    await session.request(usersPath(account.username), { method: 'DELETE' }).catch(() => undefined);
    throw new PanelError('rejected', `The panel dropped service ${connection.serviceId}: it has no such service, or this panel admin may not assign it`);
  }

  return {
    kind: 'marzneshin',

    async testConnection() {
      await session.login();
      const response = await session.request('/api/admins/current', { method: 'GET' });
      if (response.status !== 200) throw failureFor(response, 'Checking the admin account');
      checkAdminMayProvision(expectJsonObject(response, 'Checking the admin account'), connection.serviceId);
    },

    async listServices(): Promise<PanelService[]> {
      const response = await session.request('/api/services?page=1&size=100', { method: 'GET' });
      if (response.status !== 200) throw failureFor(response, 'Listing services');
      const items = (expectJsonObject(response, 'Listing services').items ?? []) as Array<{ id: number; name: string }>;
      return items.map((service) => ({ id: String(service.id), name: service.name }));
    },

    async createAccount(input) {
      const body = {
        username: input.username,
        service_ids: [Number(connection.serviceId)],
        ...expiryFields(input.expiresAt),
        data_limit: input.dataLimitBytes ?? null,
        data_limit_reset_strategy: 'no_reset',
        note: input.note,
      };
      let response: PanelResponse;
      try {
        response = await session.request('/api/users', { method: 'POST', json: body });
      } catch (err) {
        if (err instanceof PanelError && err.kind === 'timeout') return adoptIfOurs(input, err, readUser, (user) => toAccount(user));
        throw err;
      }
      if (response.status === 200) {
        const raw = expectJsonObject(response, 'Creating the user') as unknown as MarzneshinUser;
        return checkServiceKept(toAccount(raw), raw);
      }
      if (response.status === 409 || response.status >= 500) return adoptIfOurs(input, response, readUser, (user) => toAccount(user));
      throw failureFor(response, 'Creating the user');
    },

    async listAccounts({ page, size }) {
      const query = new URLSearchParams({ page: String(page), size: String(Math.min(size, 100)) });
      const response = await session.request(`/api/users?${query.toString()}`, { method: 'GET' });
      if (response.status !== 200) throw failureFor(response, 'Listing users');
      const body = expectJsonObject(response, 'Listing users');
      const items = Array.isArray(body.items) ? (body.items as unknown[]) : [];
      return { accounts: items.map((item) => toAccount(item)), total: Number(body.total ?? items.length) };
    },

    async getAccount(username, options = {}) {
      const user = await readUser(username);
      if (!user) return null;
      const account = toAccount(user);
      return options.withLinks ? { ...account, links: await fetchLinks(account.subscriptionUrl) } : account;
    },

    async extendAccount(username, change) {
      // The body must carry the username and either the expire strategy with its fields or
      // "usage_duration": null, or the panel answers 500 (an upstream bug, panels.md).
      const body: Record<string, unknown> = { username, ...(change.expiresAt !== undefined ? expiryFields(change.expiresAt) : { usage_duration: null }) };
      if (change.dataLimitBytes !== undefined) body.data_limit = change.dataLimitBytes ?? 0;
      const response = await session.request(usersPath(username), { method: 'PUT', json: body });
      if (response.status !== 200) throw failureFor(response, 'Updating the user');
      return toAccount(expectJsonObject(response, 'Updating the user'));
    },

    async setEnabled(username, enabled) {
      const response = await session.request(`${usersPath(username)}/${enabled ? 'enable' : 'disable'}`, { method: 'POST' });
      // 409 "User is already enabled" / "User is not enabled": it already is as asked.
      if (response.status !== 200 && response.status !== 409) throw failureFor(response, enabled ? 'Enabling the user' : 'Disabling the user');
      const user = await readUser(username);
      if (!user) throw new PanelError('rejected', `The user ${username} does not exist on the panel`, 404);
      return toAccount(user);
    },

    async resetUsage(username) {
      const response = await session.request(`${usersPath(username)}/reset`, { method: 'POST' });
      if (response.status !== 200) throw failureFor(response, 'Resetting the traffic');
      return toAccount(expectJsonObject(response, 'Resetting the traffic'));
    },

    async deleteAccount(username) {
      const response = await session.request(usersPath(username), { method: 'DELETE' });
      if (response.status === 200) return { alreadyGone: false };
      if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return { alreadyGone: true };
      if (response.status === 403 && detailOf(response) === NOT_ALLOWED && (await findViaList(username)) === null) return { alreadyGone: true };
      throw failureFor(response, 'Failed to delete user from master server');
    },
  };
}
