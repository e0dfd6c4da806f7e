/**
 * Which format a subscription request gets (clients.md, "The subscription endpoint"): a path suffix
 * forces one; otherwise the User-Agent picks it with anchored, case-insensitive rules; anything else
 * gets base64 of the links. Pure: no node imports.
 */

export const SUBSCRIPTION_FORMATS = ['links', 'base64', 'sing-box', 'clash-meta', 'clash'] as const;
export type SubscriptionFormat = (typeof SUBSCRIPTION_FORMATS)[number];

/** `/sub/:token/<suffix>` → the format it forces. */
export const PATH_FORMATS: Readonly<Record<string, SubscriptionFormat>> = {
  links: 'links',
  v2ray: 'base64',
  'sing-box': 'sing-box',
  'clash-meta': 'clash-meta',
  clash: 'clash',
};

/**
 * Anchored rules, first match wins. Hiddify's UA is `HiddifyNext/<v> (<os>) like ClashMeta v2ray sing-box`:
 * only the start of the string may decide, or an unanchored `clash` would misroute it.
 */
export const USER_AGENT_RULES: ReadonlyArray<readonly [RegExp, SubscriptionFormat]> = [
  [/^(clash-verge|clash[-.]?meta|flclash|mihomo)/i, 'clash-meta'],
  [/^(clash|stash)/i, 'clash'],
  [/^(sfa|sfi|sfm|sft|karing|hiddifynext)/i, 'sing-box'],
];

export function formatForUserAgent(userAgent: string | undefined): SubscriptionFormat {
  const ua = (userAgent ?? '').trimStart();
  for (const [pattern, format] of USER_AGENT_RULES) if (pattern.test(ua)) return format;
  return 'base64';
}

/** A browser asks for HTML; VPN clients send a wildcard Accept or none. */
export function wantsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /\btext\/html\b/i.test(accept);
}

export const CONTENT_TYPES: Readonly<Record<SubscriptionFormat, string>> = {
  links: 'text/plain; charset=utf-8',
  base64: 'text/plain; charset=utf-8',
  'sing-box': 'application/json; charset=utf-8',
  'clash-meta': 'text/yaml; charset=utf-8',
  clash: 'text/yaml; charset=utf-8',
};

/**
 * What we ask the panel for: both Marzneshin and Marzban serve `<subscription_url>/<suffix>` for these
 * four (panels.md), whatever the User-Agent. `links` and `base64` both come from `v2ray` (base64 of the
 * links; Marzban has no `/links`), so one panel copy serves both.
 */
export type { PanelSubscriptionFormat as PanelFormat } from '../../panels/panel-driver.js';
import type { PanelSubscriptionFormat as PanelFormat } from '../../panels/panel-driver.js';

export const PANEL_SOURCE: Readonly<Record<SubscriptionFormat, PanelFormat>> = {
  links: 'v2ray',
  base64: 'v2ray',
  'sing-box': 'sing-box',
  'clash-meta': 'clash-meta',
  clash: 'clash',
};

/** Our tokens are base64url (32 characters today); anything else, or longer than the column, is not one. */
export const SUB_TOKEN_PATTERN = /^[A-Za-z0-9._~-]{1,64}$/;

export interface SubscriptionPath {
  token: string;
  /** The format a path suffix forces; null = choose by Accept / User-Agent. */
  forced: SubscriptionFormat | null;
}

/** The part of the path after `/sub/`: `<token>` or `<token>/<suffix>` (a trailing slash is ignored). Null when malformed. */
export function parseSubscriptionPath(rest: string): SubscriptionPath | null {
  if (!rest.includes('/')) return SUB_TOKEN_PATTERN.test(rest) ? { token: rest, forced: null } : null;
  const parts = rest.split('/');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const [token, suffix, ...extra] = parts;
  if (token === undefined || !SUB_TOKEN_PATTERN.test(token) || extra.length > 0) return null;
  if (suffix === undefined) return { token, forced: null };
  const forced = Object.hasOwn(PATH_FORMATS, suffix) ? PATH_FORMATS[suffix] : undefined;
  return forced ? { token, forced } : null;
}
