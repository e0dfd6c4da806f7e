import type { PanelKind, PanelSubscriptionFormat } from './panel-driver.js';
import { pasarguardSubscriptionFormatUrl } from './pasarguard.js';
import { remnawaveSubscriptionFormatUrl, remnawaveSubscriptionHeaders } from './remnawave.js';
import { parseSubscriptionUrl, subscriptionUrlsToTry } from './subscription-route.js';

/** How `/sub` asks a panel for one account's configuration in one format. */
export interface PanelSubscriptionRequest {
  url: string;
  headers: Record<string, string>;
  /** `panel`: through the URL the admin added (and tested); `public`: the panel's public subscription address. */
  via: 'panel' | 'public';
}

/** `<subscription_url>/<format>`: Marzneshin and Marzban serve these four suffixes (panels.md). */
function suffixed(url: URL, format: PanelSubscriptionFormat): string {
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${format}`;
  return url.href;
}

/**
 * One way of asking: each kind names its formats in its own way. Marzneshin, Marzban and PasarGuard get
 * the client's own User-Agent (their templates may vary by app); Remnawave gets ours and the forwarded
 * headers its proxy check wants (it answers 403 without a User-Agent, and may pick Xray JSON for a
 * client's). A row whose server is gone (kind null) is read as Marzneshin's.
 */
function requestFor(
  kind: PanelKind | string | null,
  subscriptionUrl: string,
  format: PanelSubscriptionFormat,
  clientUserAgent: string,
): Omit<PanelSubscriptionRequest, 'via'> {
  const url = parseSubscriptionUrl(subscriptionUrl);
  const clientHeaders: Record<string, string> = { accept: '*/*', ...(clientUserAgent ? { 'user-agent': clientUserAgent } : {}) };
  switch (kind) {
    case 'remnawave':
      return { url: remnawaveSubscriptionFormatUrl(url.href, format), headers: remnawaveSubscriptionHeaders() };
    case 'pasarguard':
      return { url: pasarguardSubscriptionFormatUrl(url.href, format), headers: clientHeaders };
    default:
      return { url: suffixed(url, format), headers: clientHeaders };
  }
}

/**
 * Where and how the panel serves an account's configuration in one format, in the order to try them:
 * through the panel URL that was added first, then the panel's public subscription address.
 */
export function panelSubscriptionRequests(
  kind: PanelKind | string | null,
  panelUrl: string | null,
  subscriptionUrl: string,
  format: PanelSubscriptionFormat,
  clientUserAgent: string,
): PanelSubscriptionRequest[] {
  return subscriptionUrlsToTry(kind, panelUrl, subscriptionUrl).map(({ url, via }) => ({ ...requestFor(kind, url, format, clientUserAgent), via }));
}
