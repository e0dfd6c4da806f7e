import { PanelError, type AccountStatus, type PanelAccount } from './panel-driver.js';
import type { PanelSession } from './panel-session.js';
import { fromUnix, isPlaceholderLink } from './normalize.js';

/**
 * How the Marzban driver speaks the panel's language: a user's answer as a PanelAccount, the path of a user,
 * the panel's inbounds, and the refusals it answers with.
 */

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

export type Inbounds = Record<string, Array<{ tag: string; protocol: string }>>;

export const USER_NOT_FOUND = 'User not found';
export const NOT_ALLOWED = "You're not allowed";
const STATUSES: readonly AccountStatus[] = ['active', 'disabled', 'limited', 'expired', 'on_hold'];
/** `serviceId` meaning every inbound of the panel. */
export const ALL_INBOUNDS = 'all';

export const userPath = (username: string) => `/api/user/${encodeURIComponent(username)}`;

/** A user's answer as a PanelAccount (its subscription URL made absolute against the panel's; its links when asked). */
export function toAccount(session: PanelSession, raw: unknown, withLinks = false): PanelAccount {
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
