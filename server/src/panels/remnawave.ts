import { PanelError, type PanelConnection, type PanelDriver, type PanelSubscriptionFormat } from './panel-driver.js';
import { FORWARDED_HEADERS, createRemnawaveClient, errorCodeOf, remnawaveFailure } from './remnawave-http.js';
import {
  ALREADY_DISABLED,
  ALREADY_ENABLED,
  USER_NOT_FOUND,
  checkMayReadUsers,
  checkVersion,
  createUser,
  fetchLinks,
  patchUser,
  readSquads,
  readUser,
  remnawaveCall,
  requireSquads,
  requireUser,
  setUserSquads,
  unwrap,
  userAction,
} from './remnawave-requests.js';
import { expireAtFor, squadUuids, toAccount } from './remnawave-user.js';

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

/**
 * Remnawave 3.x through an API token (Authorization: Bearer). Users are addressed by numeric id, read
 * by username; `serviceId` is one or more internal squad UUIDs. Panels before 3.0 are refused at the
 * credential test (their user routes took UUIDs).
 */
export function createRemnawaveDriver(connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  const call = remnawaveCall(createRemnawaveClient(connection.url, connection.apiToken ?? '', options.timeoutMs));

  return {
    kind: 'remnawave',

    async testConnection() {
      if (!connection.apiToken) throw new PanelError('auth', 'An API token is required: make one in the panel under Remnawave Settings → API Tokens');
      const squads = squadUuids(connection.serviceId);
      await checkVersion(call);
      await checkMayReadUsers(call);
      if (squads.length > 0) await requireSquads(call, squads);
    },

    listServices: () => readSquads(call),

    createAccount: (input) => createUser(call, input.serviceId ?? connection.serviceId, input),

    async getAccount(username, options = {}) {
      const user = await readUser(call, username);
      if (!user) return null;
      const account = toAccount(user);
      if (!options.withLinks) return account;
      // An inactive user's links are the panel's remark-only lines: never configurations.
      return { ...account, links: account.status === 'active' ? await fetchLinks(call, username) : [] };
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
      const body: Record<string, unknown> = { hwidDeviceLimit: 0 };
      if (change.expiresAt !== undefined) body.expireAt = expireAtFor(change.expiresAt);
      if (change.dataLimitBytes !== undefined) body.trafficLimitBytes = change.dataLimitBytes ?? 0;
      return patchUser(call, username, body, 'Updating the user');
    },

    setServices: (username, serviceId) => setUserSquads(call, username, serviceId),

    async setEnabled(username, enabled) {
      const user = await requireUser(call, username);
      // "Enabled" is any status but DISABLED; enabling an EXPIRED or LIMITED user would only flip it back and forth.
      if ((user.status === 'DISABLED') !== enabled) return toAccount(user);
      return enabled
        ? userAction(call, username, 'enable', 'Enabling the user', [ALREADY_ENABLED])
        : userAction(call, username, 'disable', 'Disabling the user', [ALREADY_DISABLED]);
    },

    async resetUsage(username) {
      return userAction(call, username, 'reset-traffic', 'Resetting the traffic');
    },

    async deleteAccount(username) {
      const user = await readUser(call, username);
      if (!user) return { alreadyGone: true };
      const response = await call(`/api/users/${user.id}`, { method: 'DELETE' });
      if (response.status === 204 || response.status === 200) return { alreadyGone: false };
      if (response.status === 404 && errorCodeOf(response) === USER_NOT_FOUND) return { alreadyGone: true };
      throw remnawaveFailure(response, 'Deleting the user');
    },
  };
}
