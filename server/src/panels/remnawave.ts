import { PanelError, type NewPanelAccount, type PanelAccount, type PanelConnection, type PanelDriver, type PanelService, type PanelSubscriptionFormat } from './panel-driver.js';
import { expectJsonObject, type PanelResponse } from './panel-http.js';
import { adoptIfOurs } from './adopt.js';
import {
  DROPPED_CONNECTION,
  FORWARDED_HEADERS,
  createRemnawaveClient,
  errorCodeOf,
  isDroppedConnection,
  isForbiddenResource,
  isRouteNotFound,
  remnawaveFailure,
  type RemnawaveRequest,
} from './remnawave-http.js';
import { asRemnawaveUser, expireAtFor, isRemarkOnlyLink, squadUuids, toAccount, type RemnawaveUser } from './remnawave-user.js';

/** Error codes of libs/contract/constants/errors/errors.ts that the driver acts on. */
const USERNAME_TAKEN = 'A019';
const CREATE_USER_ERROR = 'A018';
const USER_NOT_FOUND = 'A025';
const NOT_FOUND_BY_UNIQUE_FIELDS = 'A063';
const ALREADY_DISABLED = 'A029';
const ALREADY_ENABLED = 'A030';
/** CreateUserCommand's username: what the panel can hold (a `.` or `..` would also change the path it is read by). */
const USERNAME = /^[a-zA-Z0-9_-]{3,36}$/;
const USERNAME_RULE = 'Remnawave usernames are 3 to 36 letters, digits, underscores and dashes';
/** GET /api/users takes `size` up to 1000 (TanstackQueryRequestQuerySchema). */
const MAX_PAGE_SIZE = 1000;
/** Users oldest first, so pages stay put while users are created (the panel's default is newest first). */
const BY_ID_ASCENDING = JSON.stringify([{ id: 'id', desc: false }]);

/** The client-type path segments of `/api/sub/{shortUuid}/{clientType}` (REQUEST_TEMPLATE_TYPE). */
const CLIENT_TYPE_SEGMENTS: Readonly<Record<PanelSubscriptionFormat, string | null>> = {
  // No segment forces base64: the base URL answers it through the "Fallback Base64" response rule.
  v2ray: null,
  'sing-box': 'singbox',
  'clash-meta': 'mihomo',
  clash: 'clash',
};

/**
 * The URL our /sub GETs to receive `format` from the panel's public subscription endpoint
 * (`https://<SUB_PUBLIC_DOMAIN>/<shortUuid>`, served by src/modules/subscription/controllers/subscription.controller.ts).
 */
export function remnawaveSubscriptionFormatUrl(subscriptionUrl: string, format: PanelSubscriptionFormat): string {
  const url = new URL(subscriptionUrl);
  const segment = CLIENT_TYPE_SEGMENTS[format];
  const base = url.pathname.replace(/\/+$/, '');
  url.pathname = segment ? `${base}/${segment}` : base;
  url.hash = '';
  return url.href;
}

/**
 * A User-Agent that no seeded response rule matches, so the base URL falls through to base64 links
 * (and not to Xray JSON, which the panel may serve to v2rayN/v2rayNG/Happ…): never send a client's own.
 */
export const REMNAWAVE_SUBSCRIPTION_USER_AGENT = 'vpn-storefront/1.0';

/**
 * The headers of that GET: the panel answers 403 without a User-Agent and drops requests without the
 * forwarded headers when the subscription URL points at the panel itself (a reverse proxy adds its own).
 */
export function remnawaveSubscriptionHeaders(): Record<string, string> {
  return { 'user-agent': REMNAWAVE_SUBSCRIPTION_USER_AGENT, accept: '*/*', ...FORWARDED_HEADERS };
}

/** The `response` of the panel's `{response: …}` envelope. */
function unwrap(response: PanelResponse, action: string): unknown {
  const inner = expectJsonObject(response, action).response;
  if (inner === null || typeof inner !== 'object') throw new PanelError('invalid_response', `${action}: the answer has no "response"`, response.status);
  return inner;
}

/**
 * Remnawave 3.x through an API token (Authorization: Bearer). Users are addressed by numeric id, read
 * by username; `serviceId` is one or more internal squad UUIDs. Panels before 3.0 are refused at the
 * credential test (their user routes took UUIDs).
 */
export function createRemnawaveDriver(connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  const client = createRemnawaveClient(connection.url, connection.apiToken ?? '', options.timeoutMs);

  async function call(path: string, request: RemnawaveRequest): Promise<PanelResponse> {
    try {
      return await client.request(path, request);
    } catch (err) {
      if (isDroppedConnection(err)) throw new PanelError('unreachable', DROPPED_CONNECTION);
      throw err;
    }
  }

  async function readUser(username: string): Promise<RemnawaveUser | null> {
    if (!USERNAME.test(username)) throw new PanelError('rejected', `${USERNAME_RULE}: "${username}" cannot be a user of this panel`, 400);
    const response = await call(`/api/users/by-username/${encodeURIComponent(username)}`, { method: 'GET' });
    if (response.status === 200) return asRemnawaveUser(unwrap(response, 'Reading the user'));
    const code = errorCodeOf(response);
    if (response.status === 404 && (code === NOT_FOUND_BY_UNIQUE_FIELDS || code === USER_NOT_FOUND)) return null;
    throw remnawaveFailure(response, 'Reading the user');
  }

  async function requireUser(username: string): Promise<RemnawaveUser> {
    const user = await readUser(username);
    if (!user) throw new PanelError('rejected', `The user ${username} does not exist on the panel`, 404);
    return user;
  }

  /** For adoptIfOurs, which compares `note`: Remnawave keeps our marker in `description`. */
  const readForAdoption = async (username: string) => {
    const user = await readUser(username);
    return user && { ...user, note: user.description };
  };

  async function readSquads(): Promise<PanelService[]> {
    const response = await call('/api/internal-squads', { method: 'GET' });
    if (isForbiddenResource(response)) {
      throw new PanelError('not_permitted', 'This API token may not list internal squads (it lacks the internal-squads scope, or was deleted): give it that scope, or make one with all scopes', 403);
    }
    if (response.status !== 200) throw remnawaveFailure(response, 'Listing internal squads');
    const squads = (unwrap(response, 'Listing internal squads') as { internalSquads?: unknown }).internalSquads;
    if (!Array.isArray(squads)) throw new PanelError('invalid_response', 'Listing internal squads: the answer has no "internalSquads"');
    return (squads as Array<{ uuid: string; name: string }>).map((squad) => ({ id: squad.uuid, name: squad.name }));
  }

  /** Throws PanelError('rejected') naming the first of `uuids` the panel does not have. */
  async function requireSquads(uuids: string[]): Promise<void> {
    const known = new Set((await readSquads()).map((squad) => squad.id.toLowerCase()));
    const missing = uuids.find((uuid) => !known.has(uuid.toLowerCase()));
    if (missing) throw new PanelError('rejected', `The panel has no internal squad ${missing}; check the server's squads`);
  }

  /** 3.x only: the version from `GET /api/system/metadata` (a token without the system scope skips this). */
  async function checkVersion(): Promise<void> {
    const response = await call('/api/system/metadata', { method: 'GET' });
    if (isForbiddenResource(response)) return;
    if (isRouteNotFound(response)) {
      // No metadata route: a panel older than 2.5, or no Remnawave at all (then the users route is missing too).
      const users = await call('/api/users?start=0&size=1', { method: 'GET' });
      if (isRouteNotFound(users)) throw remnawaveFailure(users, 'Reading users');
      throw new PanelError('rejected', 'This Remnawave panel is older than 2.5; the storefront needs Remnawave 3.0 or later');
    }
    if (response.status !== 200) throw remnawaveFailure(response, 'Reading the panel version');
    const reported = (unwrap(response, 'Reading the panel version') as { version?: unknown }).version;
    const version = typeof reported === 'string' || typeof reported === 'number' ? String(reported) : '';
    const major = Number.parseInt(version, 10);
    if (!(major >= 3)) {
      throw new PanelError('rejected', `This panel runs Remnawave ${version || 'of an unknown version'}; the storefront speaks the Remnawave 3.x API (users by numeric id): update the panel to 3.0 or later`);
    }
  }

  async function checkMayReadUsers(): Promise<void> {
    const response = await call('/api/users?start=0&size=1', { method: 'GET' });
    if (isForbiddenResource(response)) {
      throw new PanelError('not_permitted', 'This API token may not manage users (it lacks the users scope, or was deleted): give it users:*, or make one with all scopes', 403);
    }
    if (response.status !== 200) throw remnawaveFailure(response, 'Reading users');
    const users = (unwrap(response, 'Reading users') as { users?: unknown }).users;
    if (!Array.isArray(users)) throw new PanelError('invalid_response', 'Reading users: the answer has no "users"');
    users.forEach((user) => asRemnawaveUser(user));
  }

  async function fetchLinks(username: string): Promise<string[]> {
    const response = await call(`/api/subscriptions/by-username/${encodeURIComponent(username)}`, { method: 'GET' });
    if (response.status === 404 && errorCodeOf(response)) return [];
    if (response.status !== 200) throw remnawaveFailure(response, 'Reading the configuration links');
    const links = (unwrap(response, 'Reading the configuration links') as { links?: unknown }).links;
    return Array.isArray(links) ? links.filter((link): link is string => typeof link === 'string' && !isRemarkOnlyLink(link)) : [];
  }

  /** One of the `/api/users/{id}/actions/…` routes; `alreadySo` error codes mean it already is as asked. */
  async function userAction(username: string, action: string, label: string, alreadySo: string[] = []): Promise<PanelAccount> {
    const user = await requireUser(username);
    const response = await call(`/api/users/${user.id}/actions/${action}`, { method: 'POST' });
    if (response.status === 200) return toAccount(unwrap(response, label));
    const code = errorCodeOf(response);
    if (response.status === 400 && code && alreadySo.includes(code)) return toAccount(await requireUser(username));
    if (response.status === 404 && code === USER_NOT_FOUND) throw new PanelError('rejected', `The user ${username} does not exist on the panel`, 404);
    throw remnawaveFailure(response, label);
  }

  async function createAccount(input: NewPanelAccount): Promise<PanelAccount> {
    const squads = squadUuids(connection.serviceId);
    const body = {
      username: input.username,
      status: 'ACTIVE',
      trafficLimitBytes: input.dataLimitBytes ?? 0,
      trafficLimitStrategy: 'NO_RESET',
      expireAt: expireAtFor(input.expiresAt),
      description: input.note,
      // 0 = no HWID limit for this user: our /sub enforces device limits and fetches without x-hwid.
      hwidDeviceLimit: 0,
      activeInternalSquads: squads,
    };
    let response: PanelResponse;
    try {
      response = await call('/api/users', { method: 'POST', json: body });
    } catch (err) {
      if (err instanceof PanelError && err.kind === 'timeout') return adoptIfOurs(input, err, readForAdoption, toAccount);
      throw err;
    }
    if (response.status === 201 || response.status === 200) return toAccount(unwrap(response, 'Creating the user'));
    if (response.status === 400 && errorCodeOf(response) === USERNAME_TAKEN) {
      const taken = new PanelError('conflict', `The username ${input.username} is already taken on the panel`, 400);
      return adoptIfOurs(input, taken, readForAdoption, toAccount);
    }
    if (response.status >= 500) {
      // The panel may have written the user before failing (it reads the new user back after the insert).
      const failure = remnawaveFailure(response, 'Creating the user');
      return adoptIfOurs(input, failure, readForAdoption, toAccount).catch(async (err: unknown) => {
        if (err === failure && errorCodeOf(response) === CREATE_USER_ERROR && squads.length > 0) await requireSquads(squads);
        throw err;
      });
    }
    throw remnawaveFailure(response, 'Creating the user');
  }

  return {
    kind: 'remnawave',

    async testConnection() {
      if (!connection.apiToken) throw new PanelError('auth', 'An API token is required: make one in the panel under Remnawave Settings → API Tokens');
      const squads = squadUuids(connection.serviceId);
      await checkVersion();
      await checkMayReadUsers();
      if (squads.length > 0) await requireSquads(squads);
    },

    listServices: readSquads,

    createAccount,

    async getAccount(username, options = {}) {
      const user = await readUser(username);
      if (!user) return null;
      const account = toAccount(user);
      if (!options.withLinks) return account;
      // An inactive user's links are the panel's remark-only lines: never configurations.
      return { ...account, links: account.status === 'active' ? await fetchLinks(username) : [] };
    },

    async listAccounts({ page, size }) {
      const limit = Math.min(Math.max(size, 1), MAX_PAGE_SIZE);
      const query = new URLSearchParams({ start: String((Math.max(page, 1) - 1) * limit), size: String(limit), sorting: BY_ID_ASCENDING });
      const response = await call(`/api/users?${query.toString()}`, { method: 'GET' });
      if (response.status !== 200) throw remnawaveFailure(response, 'Listing users');
      const body = unwrap(response, 'Listing users') as { users?: unknown; total?: unknown };
      const users = Array.isArray(body.users) ? body.users : [];
      return { accounts: users.map((user) => toAccount(user)), total: Number(body.total ?? users.length) };
    },

    async extendAccount(username, change) {
      // PATCH by username; a future expireAt turns an EXPIRED user ACTIVE, a higher (or no) limit a LIMITED one
      // (UsersService.updateUser). The panel refuses an expireAt in the past.
      // hwidDeviceLimit 0 again: a limit set in the panel would make its subscription refuse our /sub (no x-hwid).
      const body: Record<string, unknown> = { username, hwidDeviceLimit: 0 };
      if (change.expiresAt !== undefined) body.expireAt = expireAtFor(change.expiresAt);
      if (change.dataLimitBytes !== undefined) body.trafficLimitBytes = change.dataLimitBytes ?? 0;
      const response = await call('/api/users', { method: 'PATCH', json: body });
      if (response.status === 200) return toAccount(unwrap(response, 'Updating the user'));
      if (response.status === 404 && errorCodeOf(response) === USER_NOT_FOUND) throw new PanelError('rejected', `The user ${username} does not exist on the panel`, 404);
      throw remnawaveFailure(response, 'Updating the user');
    },

    async setEnabled(username, enabled) {
      const user = await requireUser(username);
      // "Enabled" is any status but DISABLED; enabling an EXPIRED or LIMITED user would only flip it back and forth.
      if ((user.status === 'DISABLED') !== enabled) return toAccount(user);
      return enabled
        ? userAction(username, 'enable', 'Enabling the user', [ALREADY_ENABLED])
        : userAction(username, 'disable', 'Disabling the user', [ALREADY_DISABLED]);
    },

    async resetUsage(username) {
      return userAction(username, 'reset-traffic', 'Resetting the traffic');
    },

    async deleteAccount(username) {
      const user = await readUser(username);
      if (!user) return { alreadyGone: true };
      const response = await call(`/api/users/${user.id}`, { method: 'DELETE' });
      if (response.status === 204 || response.status === 200) return { alreadyGone: false };
      if (response.status === 404 && errorCodeOf(response) === USER_NOT_FOUND) return { alreadyGone: true };
      throw remnawaveFailure(response, 'Deleting the user');
    },
  };
}
