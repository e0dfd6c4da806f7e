import { PanelError, type AccountStatus, type PanelAccount, type PanelSubscriptionFormat } from './panel-driver.js';
import { describeFailure, detailOf, failureFor, type PanelResponse } from './panel-http.js';
import type { PanelSession } from './panel-session.js';
import { fromUnix, parseNaiveUtc } from './normalize.js';

/**
 * How the PasarGuard driver speaks the panel's language: a user's answer as a PanelAccount, the expiry it sends,
 * the path of a user and of a subscription format, and which refusals are the admin's role.
 */

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

export const USER_NOT_FOUND = 'User not found';
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

export const expireField = (expiresAt: Date | null) => (expiresAt ? expiresAt.toISOString() : 0);

export const userPath = (username: string) => `/api/user/${encodeURIComponent(username)}`;

/**
 * A 403 other than a disabled admin is the role refusing an action ("Permission denied: users.create",
 * "Admin is limited — write actions blocked"): the credentials work, this admin may not do it.
 */
export function failure(response: PanelResponse, action: string): PanelError {
  if (response.status === 403 && detailOf(response) !== ACCOUNT_DISABLED) {
    return new PanelError('not_permitted', `${action}: ${describeFailure(response)}`, 403);
  }
  return failureFor(response, action);
}

/** The user of an answer as a PanelAccount; its subscription URL made absolute on the panel's address. */
export function toAccount(session: PanelSession, raw: unknown, links: string[] | null = null): PanelAccount {
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
