import {
  PanelError,
  type AccountStatus,
  type NewPanelAccount,
  type PanelAccount,
  type PanelConnection,
  type PanelDriver,
  type PanelService,
  type PanelSubscriptionFormat,
} from './panel-driver.js';
import { describeFailure, detailOf, expectJsonObject, failureFor, type PanelResponse } from './panel-http.js';
import { adoptIfOurs } from './adopt.js';
import { checkAdminMayProvision } from './pasarguard-admin.js';
import { groupProblem, readGroups, requireGroupIds } from './pasarguard-groups.js';
import { fetchPanelSubscription } from './subscription-fetch.js';
import { subscriptionUrlsToTry } from './subscription-route.js';
import { PanelSession } from './panel-session.js';
import { fromUnix, isPlaceholderLink, parseNaiveUtc, splitLinks } from './normalize.js';

interface PasarguardUser {
  username: string;
  status: string;
  used_traffic: number;
  data_limit: number | null;
  /** An ISO datetime with a zone (`2030-01-31T12:00:00Z`); the model also allows unix seconds. */
  expire: string | number | null;
  subscription_url: string;
  note: string | null;
}

const USER_NOT_FOUND = 'User not found';
const GROUP_NOT_FOUND = 'Group not found';
const ACCOUNT_DISABLED = 'your account has been disabled';
const STATUSES: readonly AccountStatus[] = ['active', 'disabled', 'limited', 'expired', 'on_hold'];

/** The client-type path segments of `GET /sub/{token}/{client_type}` (app/models/settings.py ConfigFormat). */
const CLIENT_TYPES: Readonly<Record<PanelSubscriptionFormat, string>> = {
  v2ray: 'links_base64',
  'sing-box': 'sing_box',
  'clash-meta': 'clash_meta',
  clash: 'clash',
};

/**
 * The URL our /sub GETs for one format: PasarGuard names its formats with underscores and calls base64
 * links `links_base64` (`/sub/{token}/links_base64`, `/sing_box`, `/clash_meta`, `/clash`).
 */
export function pasarguardSubscriptionFormatUrl(subscriptionUrl: string, format: PanelSubscriptionFormat): string {
  const url = new URL(subscriptionUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${CLIENT_TYPES[format]}`;
  url.hash = '';
  return url.href;
}

const expireField = (expiresAt: Date | null) => (expiresAt ? expiresAt.toISOString() : 0);

/**
 * A 403 other than a disabled admin is the role refusing an action ("Permission denied: users.create",
 * "Admin is limited — write actions blocked"): the credentials work, this admin may not do it.
 */
function failure(response: PanelResponse, action: string): PanelError {
  if (response.status === 403 && detailOf(response) !== ACCOUNT_DISABLED) {
    return new PanelError('not_permitted', `${action}: ${describeFailure(response)}`, 403);
  }
  return failureFor(response, action);
}

export function createPasarguardDriver(connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  const session = new PanelSession({ baseUrl: connection.url, tokenPath: '/api/admin/token', username: connection.username, password: connection.password, ...options });
  const userPath = (username: string) => `/api/user/${encodeURIComponent(username)}`;

  function toAccount(raw: unknown, links: string[] | null = null): PanelAccount {
    const user = raw as PasarguardUser;
    if (typeof user?.username !== 'string' || typeof user.subscription_url !== 'string' || user.subscription_url === '') {
      throw new PanelError('invalid_response', 'The panel answered with something that is not a user');
    }
    return {
      username: user.username,
      status: STATUSES.includes(user.status as AccountStatus) ? (user.status as AccountStatus) : 'disabled',
      usedTrafficBytes: Number(user.used_traffic ?? 0),
      dataLimitBytes: user.data_limit ? Number(user.data_limit) : null,
      expiresAt: typeof user.expire === 'number' ? fromUnix(user.expire) : parseNaiveUtc(user.expire),
      subscriptionUrl: session.url(user.subscription_url),
      links,
      note: user.note ?? null,
    };
  }

  async function readUser(username: string): Promise<unknown | null> {
    const response = await session.request(userPath(username), { method: 'GET' });
    if (response.status === 200) return expectJsonObject(response, 'Reading the user');
    if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return null;
    throw failure(response, 'Reading the user');
  }

  /**
   * The links of the `links_base64` format (the one /sub serves too), through the panel URL first as
   * /sub does; the panel's placeholders dropped.
   */
  async function fetchLinks(subscriptionUrl: string): Promise<string[]> {
    const requests = subscriptionUrlsToTry('pasarguard', connection.url, subscriptionUrl)
      .map(({ url, via }) => ({ url: pasarguardSubscriptionFormatUrl(url, 'v2ray'), headers: {}, via }));
    const { response } = await fetchPanelSubscription(requests, { timeoutMs: options.timeoutMs, answered: (status) => status === 200 || status === 403 });
    // A 403 here is the panel's device check ("HWID header required", "Device limit reached") on a user
    // made without `hwid_limit: 0`, not our credentials.
    if (response.status === 403) throw new PanelError('rejected', `Reading the configuration links: ${describeFailure(response)}`, 403);
    if (response.status !== 200) throw failureFor(response, 'Reading the configuration links');
    const body = response.text.trim();
    const text = body.includes('://') ? body : Buffer.from(body, 'base64').toString('utf8');
    return splitLinks(text).filter((link) => !isPlaceholderLink(link));
  }

  /**
   * Refuses before the POST what the panel would refuse (unknown group) or accept uselessly (disabled group).
   * Whether the groups' state could be read: without `groups.read` the panel gives names only.
   */
  async function checkGroups(ids: number[]): Promise<boolean> {
    const groups = await readGroups(session);
    const problem = groups && groupProblem(groups, ids);
    if (problem) throw new PanelError('rejected', problem);
    return groups !== null && groups.every((group) => group.disabled !== null);
  }

  /**
   * Where the groups' state could not be read, a new user whose subscription has no configuration was put
   * only in disabled groups (or groups without inbounds): it is deleted again, and refused with why.
   */
  async function requireConfiguration(account: PanelAccount, groupIds: number[]): Promise<PanelAccount> {
    const links = await fetchLinks(account.subscriptionUrl).catch(() => null);
    if (links === null || links.length > 0) return account;
    await session.request(userPath(account.username), { method: 'DELETE' }).catch(() => undefined);
    throw new PanelError(
      'rejected',
      `The panel gave the new user no configuration: its group ${groupIds.join(', ')} may be disabled or have no inbounds (this panel admin cannot see groups' state; grant it groups.read to have it checked before)`,
    );
  }

  /**
   * After a 409, a 5xx or a timeout the user may exist: read it back and adopt it only with our marker.
   * A 409 for a user this admin cannot read (another admin's, for an "own"-scoped role) is a conflict.
   */
  async function adopt(input: NewPanelAccount, cause: PanelError | PanelResponse): Promise<PanelAccount> {
    const existing = await readUser(input.username);
    if (!existing && !(cause instanceof PanelError) && cause.status === 409) {
      throw new PanelError('conflict', `The username ${input.username} is already taken on the panel`, 409);
    }
    return adoptIfOurs(input, cause, async () => existing, (user) => toAccount(user));
  }

  async function update(path: string, body: Record<string, unknown>, action: string): Promise<PanelAccount> {
    const response = await session.request(path, { method: 'PUT', json: body });
    if (response.status !== 200) throw failure(response, action);
    return toAccount(expectJsonObject(response, action));
  }

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
      if (!groups) throw new PanelError('not_permitted', "this panel admin may not read groups, so the server's groups cannot be checked; grant groups.read_simple");
      const problem = groupProblem(groups, ids);
      if (problem) throw new PanelError('rejected', problem);
    },

    async listServices(): Promise<PanelService[]> {
      const groups = await readGroups(session);
      if (!groups) throw new PanelError('not_permitted', 'This panel admin may not read groups; grant groups.read_simple');
      return groups.map((group) => ({ id: String(group.id), name: group.disabled ? `${group.name} (disabled)` : group.name }));
    },

    async createAccount(input) {
      const groupIds = requireGroupIds(connection.serviceId);
      const stateKnown = await checkGroups(groupIds);
      const body = {
        username: input.username,
        group_ids: groupIds,
        expire: expireField(input.expiresAt),
        data_limit: input.dataLimitBytes ?? 0,
        data_limit_reset_strategy: 'no_reset',
        status: 'active',
        note: input.note,
        // 0 turns the panel's device (HWID) limit off for this user; null would fall back to the
        // panel's default limit, and the storefront enforces device limits itself.
        hwid_limit: 0,
      };
      let response: PanelResponse;
      try {
        response = await session.request('/api/user', { method: 'POST', json: body });
      } catch (err) {
        if (err instanceof PanelError && err.kind === 'timeout') return adopt(input, err);
        throw err;
      }
      if (response.status === 201 || response.status === 200) {
        const created = toAccount(expectJsonObject(response, 'Creating the user'));
        return stateKnown ? created : requireConfiguration(created, groupIds);
      }
      if (response.status === 409 || response.status >= 500) return adopt(input, response);
      if (response.status === 404 && detailOf(response) === GROUP_NOT_FOUND) {
        throw new PanelError('rejected', `The panel has no group among ${groupIds.join(', ')} (Group not found); check the server's service ID`, 404);
      }
      throw failure(response, 'Creating the user');
    },

    async listAccounts({ page, size }) {
      const limit = Math.min(size, 100);
      // load_sub: without it the list carries an empty subscription_url. sort: a stable page order.
      const query = new URLSearchParams({ offset: String((page - 1) * limit), limit: String(limit), sort: 'username', load_sub: 'true' });
      const response = await session.request(`/api/users?${query.toString()}`, { method: 'GET' });
      if (response.status !== 200) throw failure(response, 'Listing users');
      const body = expectJsonObject(response, 'Listing users');
      const users = Array.isArray(body.users) ? (body.users as unknown[]) : [];
      return { accounts: users.map((user) => toAccount(user)), total: Number(body.total ?? users.length) };
    },

    async getAccount(username, options = {}) {
      const user = await readUser(username);
      if (!user) return null;
      const account = toAccount(user);
      return options.withLinks ? { ...account, links: await fetchLinks(account.subscriptionUrl) } : account;
    },

    async extendAccount(username, change) {
      // Only the fields sent change; a later expire makes an expired user active, a higher data_limit a
      // limited one (app/db/crud/user.py modify_user). 0 = never / unlimited.
      const body: Record<string, unknown> = {};
      if (change.expiresAt !== undefined) body.expire = expireField(change.expiresAt);
      if (change.dataLimitBytes !== undefined) body.data_limit = change.dataLimitBytes ?? 0;
      return update(userPath(username), body, 'Updating the user');
    },

    async setEnabled(username, enabled) {
      // The toggle route recomputes the status when enabling (expired / limited / active), unlike a PUT
      // of `status: active`, and answers 200 whatever the user's state was.
      return update(`${userPath(username)}/disabled`, { disabled: !enabled }, enabled ? 'Enabling the user' : 'Disabling the user');
    },

    async resetUsage(username) {
      const response = await session.request(`${userPath(username)}/reset`, { method: 'POST' });
      if (response.status !== 200) throw failure(response, 'Resetting the traffic');
      return toAccount(expectJsonObject(response, 'Resetting the traffic'));
    },

    async deleteAccount(username) {
      const response = await session.request(userPath(username), { method: 'DELETE' });
      if (response.status === 204 || response.status === 200) return { alreadyGone: false };
      if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return { alreadyGone: true };
      throw failure(response, 'Failed to delete user from master server');
    },
  };
}
