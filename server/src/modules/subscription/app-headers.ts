/**
 * The headers of `/sub` that VPN apps act on (clients.md; Happ's and v2RayTun's documentation), made from the
 * operator's settings once per settings load, and per account from what it is: usage, limit and end.
 */
import type { Locale } from '../../../../shared/locales.js';
import type { SubscriptionHeaderSettings } from '../../../../shared/subscription-headers.js';
import type { SubscriptionUserinfo } from './subscription-content.js';
import type { SubscriptionAccount } from './subscription.repo.js';

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

/** Header values must not carry control characters (everything here is admin input). */
export const headerSafe = (value: string) => value.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();

/** The settings' part of the headers, ready to send. */
export interface AppHeaderSettings {
  updateInterval: string;
  /** `base64:` texts by language; null when there is no announcement. */
  announce: Partial<Record<Locale, string>> | null;
  /** Whether the announcement differs by language (then the owner's language is needed to pick it). */
  announceByLanguage: boolean;
  routing: string | null;
  happ: { providerId: string; hideSettings: boolean } | null;
}

export function appHeaderSettings(settings: SubscriptionHeaderSettings): AppHeaderSettings {
  const texts = Object.entries(settings.announce).filter(([, text]) => headerSafe(text ?? '') !== '') as Array<[Locale, string]>;
  const announce = texts.length > 0 ? Object.fromEntries(texts.map(([locale, text]) => [locale, `base64:${b64(headerSafe(text))}`])) : null;
  return {
    updateInterval: String(settings.updateIntervalHours),
    announce,
    announceByLanguage: new Set(texts.map(([, text]) => text)).size > 1 || (texts.length > 0 && !settings.announce.en),
    routing: settings.routing ? headerSafe(settings.routing) : null,
    happ: settings.happProviderId ? { providerId: settings.happProviderId, hideSettings: settings.hideSettings } : null,
  };
}

/** The announcement in the reader's language, English when there is none in it, else any. */
function announceIn(announce: Partial<Record<Locale, string>>, locale: Locale): string | undefined {
  return announce[locale] ?? announce.en ?? Object.values(announce)[0];
}

/**
 * `subscription-userinfo`: usage from the panel's answer when there is one (it measures it), limit and end
 * from our row (we sold them). An account without an end has no `expire` (some apps show 0 as 01.01.1970).
 */
export function userinfo(account: SubscriptionAccount, panelUsage: SubscriptionUserinfo | null): string {
  const n = (value: number) => (Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);
  const upload = panelUsage ? panelUsage.upload : 0;
  const download = panelUsage ? panelUsage.download : (account.usedTrafficBytes ?? 0);
  const base = `upload=${n(upload)}; download=${n(download)}; total=${n(account.dataLimitBytes ?? 0)}`;
  return account.expireDate ? `${base}; expire=${n(Math.floor(account.expireDate.getTime() / 1000))}` : base;
}

export interface AppHeaderInput {
  account: SubscriptionAccount;
  panelUsage: SubscriptionUserinfo | null;
  settings: AppHeaderSettings;
  profileTitle: string;
  /** The owner's language (the announcement's); 'en' when it does not matter. */
  locale: Locale;
  links: { dashboard: string; support: string };
}

/** Every header of a client answer but its content type and file name. */
export function appHeaders({ account, panelUsage, settings, profileTitle, locale, links }: AppHeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'subscription-userinfo': userinfo(account, panelUsage),
    'profile-update-interval': settings.updateInterval,
    'profile-title': profileTitle,
    'profile-web-page-url': links.dashboard,
    'support-url': links.support,
    'cache-control': 'no-store',
  };
  const announce = settings.announce && announceIn(settings.announce, locale);
  if (announce) headers.announce = announce;
  if (settings.routing) headers.routing = settings.routing;
  if (settings.happ) {
    // Happ's provider headers (they act only for a registered provider id).
    headers.providerid = settings.happ.providerId;
    headers['subscription-always-hwid-enable'] = '1';
    if (settings.happ.hideSettings) headers['hide-settings'] = '1';
    if (account.expireDate) {
      headers['sub-expire'] = '1';
      headers['sub-expire-button-link'] = links.dashboard;
      headers['notification-subs-expire'] = '1';
    }
  }
  return headers;
}
