import { PanelError, type AccountStatus, type PanelAccount } from './panel-driver.js';

/** The fields of a 3.x user (libs/contract/models/extended-users.schema.ts) that the driver reads. */
export interface RemnawaveUser {
  id: number;
  username: string;
  status: string;
  trafficLimitBytes: number;
  expireAt: string;
  description: string | null;
  subscriptionUrl: string;
  userTraffic: { usedTrafficBytes: number };
}

const STATUSES: Readonly<Record<string, AccountStatus>> = { ACTIVE: 'active', DISABLED: 'disabled', LIMITED: 'limited', EXPIRED: 'expired' };

/**
 * `expireAt` is required by the panel. Remnawave itself reads a year of 2099 as "never" (it sends
 * `expire=0` in `subscription-userinfo`, src/modules/subscription/utils/get-user-info.headers.ts):
 * mid-2099 stays 2099 in every time zone the panel might run in.
 */
export const NEVER_EXPIRES = new Date('2099-06-30T00:00:00.000Z');

export const expireAtFor = (expiresAt: Date | null): string => (expiresAt ?? NEVER_EXPIRES).toISOString();

function expiryOf(expireAt: string): Date | null {
  const date = new Date(expireAt);
  if (Number.isNaN(date.getTime())) throw new PanelError('invalid_response', `The panel sent an expiry that is not a date: ${expireAt.slice(0, 40)}`);
  return date.getUTCFullYear() >= 2099 ? null : date;
}

/** The user of a 3.x answer (`{response: user}` already unwrapped), or invalid_response. */
export function asRemnawaveUser(raw: unknown): RemnawaveUser {
  const user = raw as Partial<RemnawaveUser> & { uuid?: unknown };
  if (typeof user?.username !== 'string' || typeof user.subscriptionUrl !== 'string' || typeof user.expireAt !== 'string') {
    throw new PanelError('invalid_response', 'The panel answered with something that is not a user');
  }
  if (typeof user.id !== 'number') {
    throw new PanelError('invalid_response', 'The panel sent a user without a numeric id: it is older than Remnawave 3.0, which this storefront needs');
  }
  return user as RemnawaveUser;
}

export function toAccount(raw: unknown, links: string[] | null = null): PanelAccount {
  const user = asRemnawaveUser(raw);
  return {
    username: user.username,
    status: STATUSES[user.status] ?? 'disabled',
    usedTrafficBytes: Number(user.userTraffic?.usedTrafficBytes ?? 0),
    dataLimitBytes: user.trafficLimitBytes ? Number(user.trafficLimitBytes) : null,
    expiresAt: expiryOf(user.expireAt),
    subscriptionUrl: user.subscriptionUrl,
    links,
    note: user.description ?? null,
  };
}

/**
 * The lines the panel hands an inactive user (custom remarks such as "⌛ Subscription expired") or a user
 * without hosts: VLESS to 0.0.0.0:1 with the zero UUID (ResolveProxyConfigService.createFallbackHosts).
 */
export function isRemarkOnlyLink(link: string): boolean {
  return /^[a-z0-9]+:\/\/[^@]*@0\.0\.0\.0:1(?:[/?#]|$)/i.test(link) || link.includes('00000000-0000-0000-0000-000000000000@');
}

/** The internal squad UUIDs of `serviceId` ("uuid[,uuid…]"), each checked for shape. */
export function squadUuids(serviceId: string): string[] {
  const uuids = serviceId
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const uuid of uuids) {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) {
      throw new PanelError('rejected', `"${uuid}" is not an internal squad UUID; pick the squads from the panel's list`);
    }
  }
  return uuids;
}
