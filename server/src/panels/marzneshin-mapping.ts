import { PanelError, type AccountStatus, type PanelAccount } from './panel-driver.js';
import type { PanelSession } from './panel-session.js';
import { parseNaiveUtc } from './normalize.js';

/**
 * How the Marzneshin driver speaks the panel's language: a user's answer as a PanelAccount, the expiry it
 * sends, the path of a user, and the refusals it answers with.
 */

export interface MarzneshinUser {
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

export const USER_NOT_FOUND = 'User not found';
export const NOT_ALLOWED = "You're not allowed";

/** Status order from panels.md: disabled, expired, limited, on hold, active. */
function statusOf(user: MarzneshinUser): AccountStatus {
  if (!user.enabled) return 'disabled';
  if (user.expired) return 'expired';
  if (user.data_limit_reached) return 'limited';
  if (user.expire_strategy === 'start_on_first_use') return 'on_hold';
  return 'active';
}

/** Marzneshin's expire fields for an expiry time (or none). */
export const expiryFields = (expiresAt: Date | null) =>
  expiresAt ? { expire_strategy: 'fixed_date', expire_date: expiresAt.toISOString() } : { expire_strategy: 'never', expire_date: null };

export const usersPath = (username: string) => `/api/users/${encodeURIComponent(username)}`;

/** The service ids of a `serviceId`: one number, or several separated by commas. */
export function serviceIdsOf(serviceId: string): number[] {
  const parts = serviceId
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0 || !parts.every((part) => /^\d+$/.test(part))) {
    throw new PanelError('rejected', `The service ID must be one or more Marzneshin service ids, such as 1 or 1,2 (got "${serviceId}")`);
  }
  return [...new Set(parts.map(Number))];
}

/** A user's answer as a PanelAccount (its subscription URL made absolute against the panel's). */
export function toAccount(session: PanelSession, raw: unknown, links: string[] | null = null): PanelAccount {
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
