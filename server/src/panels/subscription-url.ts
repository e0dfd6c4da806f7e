import { PanelError, type PanelKind, type PanelSubscriptionFormat } from './panel-driver.js';
import { pasarguardSubscriptionFormatUrl } from './pasarguard.js';
import { remnawaveSubscriptionFormatUrl, remnawaveSubscriptionHeaders } from './remnawave.js';

/** How `/sub` asks a panel for one account's configuration in one format. */
export interface PanelSubscriptionRequest {
  url: string;
  headers: Record<string, string>;
}

/** The panel's own subscription URL as stored, checked to be an absolute http(s) URL. */
function parseSubscriptionUrl(subscriptionUrl: string): URL {
  let url: URL;
  try {
    url = new URL(subscriptionUrl);
  } catch {
    throw new PanelError('invalid_response', 'The stored subscription URL is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PanelError('invalid_response', 'The stored subscription URL is not http(s)');
  url.hash = '';
  return url;
}

/** `<subscription_url>/<format>`: Marzneshin and Marzban serve these four suffixes (panels.md). */
function suffixed(url: URL, format: PanelSubscriptionFormat): string {
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${format}`;
  return url.href;
}

/**
 * Where and how the panel serves an account's configuration in one format, from its public subscription
 * URL: each kind names its formats in its own way. Marzneshin, Marzban and PasarGuard get the client's own
 * User-Agent (their templates may vary by app); Remnawave gets ours and the forwarded headers its proxy
 * check wants (it answers 403 without a User-Agent, and may pick Xray JSON for a client's). A row whose
 * server is gone (kind null) is read as Marzneshin's.
 */
export function panelSubscriptionRequest(kind: PanelKind | string | null, subscriptionUrl: string, format: PanelSubscriptionFormat, clientUserAgent: string): PanelSubscriptionRequest {
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
