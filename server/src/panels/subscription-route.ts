import { PanelError, type PanelKind } from './panel-driver.js';

/** The panel's own subscription URL as stored, checked to be an absolute http(s) URL. */
export function parseSubscriptionUrl(subscriptionUrl: string): URL {
  let url: URL;
  try {
    url = new URL(subscriptionUrl);
  } catch {
    throw new PanelError('invalid_response', 'The stored subscription URL is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PanelError('invalid_response', 'The stored subscription URL is not http(s)');
  url.hash = '';
  url.search = '';
  return url;
}

/**
 * The route each kind serves a user's subscription on, as the last segments of its public URL: a public
 * prefix (`SUB_PUBLIC_DOMAIN`, `XRAY_SUBSCRIPTION_URL_PREFIX`, `SUBSCRIPTION_URL_PREFIX`) only replaces what
 * comes before them. Remnawave's public `https://<domain>/<shortUuid>` is its backend's `/api/sub/<shortUuid>`.
 */
function routeOnPanel(kind: PanelKind | string | null, url: URL): string | null {
  const segments = url.pathname.split('/').filter(Boolean);
  const last = (count: number) => (segments.length >= count ? segments.slice(-count).join('/') : null);
  switch (kind) {
    case 'remnawave': {
      const shortUuid = last(1);
      return shortUuid ? `api/sub/${shortUuid}` : null;
    }
    case 'pasarguard':
    case 'marzban':
      return last(2); // /<XRAY_SUBSCRIPTION_PATH>/<token>
    default:
      return last(3); // Marzneshin: /sub/<username>/<key>
  }
}

/**
 * The same subscription on the panel URL the admin added: reachable wherever the admin API is, when the
 * public address is not (a private network, a domain blocked or not yet in DNS, a certificate we do not
 * trust). Null when that is the public URL itself, or no route can be made from it.
 */
export function subscriptionUrlOnPanel(kind: PanelKind | string | null, panelUrl: string | null, subscriptionUrl: string): string | null {
  if (!panelUrl) return null;
  const route = routeOnPanel(kind, parseSubscriptionUrl(subscriptionUrl));
  if (!route) return null;
  let base: URL;
  try {
    base = new URL(panelUrl);
  } catch {
    return null;
  }
  const onPanel = new URL(`${base.pathname.replace(/\/+$/, '')}/${route}`, base.origin).href;
  return onPanel === parseSubscriptionUrl(subscriptionUrl).href ? null : onPanel;
}

/**
 * The addresses of a user's subscription in the order to try them: on the panel URL that was added
 * (when that is another address), then the panel's public one.
 */
export function subscriptionUrlsToTry(
  kind: PanelKind | string | null,
  panelUrl: string | null,
  subscriptionUrl: string,
): Array<{ url: string; via: 'panel' | 'public' }> {
  const onPanel = subscriptionUrlOnPanel(kind, panelUrl, subscriptionUrl);
  return [...(onPanel ? [{ url: onPanel, via: 'panel' as const }] : []), { url: subscriptionUrl, via: 'public' as const }];
}
